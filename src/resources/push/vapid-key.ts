// The server's one VAPID key (docs/protocol.md §17.1): made at the first start and kept in the database, so every
// process and every server on it signs with the same key, which browsers' subscriptions were made with.
import type { Clock } from '../../clock.ts';
import type { CryptoPool } from '../../outbound/crypto-pool.ts';
import { generateVapidKeyPair, VapidSigner } from '../../outbound/vapid.ts';
import type { Store } from '../../storage/store.ts';

/** The kept key, or a new one inserted if absent: when two processes race, the first insert wins and both read it. */
/** Signatures are made on the crypto pool's threads (docs/push.md, "What runs where"). */
export async function loadVapidSigner(storage: Store, clock: Clock, pool: CryptoPool): Promise<VapidSigner> {
  let kept = await storage.push.findVapidKey();
  if (!kept) {
    await storage.push.insertVapidKeyIfAbsent({ ...generateVapidKeyPair(), createdAt: clock.now() });
    kept = await storage.push.findVapidKey();
  }
  if (!kept) throw new Error('push: the VAPID key could not be kept');
  return new VapidSigner(kept, (input, jwk) => pool.run({ type: 'sign', input, jwk }));
}
