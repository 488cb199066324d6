// Resolving and checking a target (docs/protocol.md §16.6): the scheme, every address the name resolves to, the pinned
// address, and the allow flag.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveSafeTarget, TargetRefusedError, type ResolveHost } from '../../src/outbound/safe-target.ts';

const names: Record<string, { address: string; family: number }[]> = {
  'hooks.example': [{ address: '93.184.216.34', family: 4 }],
  'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }],
  'inward.example': [{ address: '169.254.169.254', family: 4 }],
  'six.example': [{ address: '2606:4700:4700::1111', family: 6 }],
};
const resolve: ResolveHost = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};

async function refusal(url: string, allowPrivate = false): Promise<string> {
  try {
    await resolveSafeTarget(url, { allowPrivate, resolve });
  } catch (error) {
    assert.ok(error instanceof TargetRefusedError, String(error));
    return error.message;
  }
  assert.fail(`${url} was not refused`);
}

test('an https URL on a public name resolves to its address, pinned', async () => {
  const target = await resolveSafeTarget('https://hooks.example/in?x=1', { allowPrivate: false, resolve });
  assert.deepEqual({ host: target.url.host, address: target.address, family: target.family }, { host: 'hooks.example', address: '93.184.216.34', family: 4 });
  assert.equal((await resolveSafeTarget('https://six.example/', { allowPrivate: false, resolve })).family, 6);
});

test('refused: http, other schemes, credentials, non-public literals, a name with any inward address, no address', async () => {
  assert.equal(await refusal('http://hooks.example/'), 'must be an https:// URL');
  assert.equal(await refusal('ftp://hooks.example/'), 'must be an https:// URL');
  assert.equal(await refusal('not a url'), 'is not an absolute URL');
  assert.equal(await refusal('https://user:pw@hooks.example/'), 'must not carry credentials');
  assert.match(await refusal('https://127.0.0.1/'), /127\.0\.0\.1, which is not a public address/);
  assert.match(await refusal('https://[::1]:8443/'), /::1, which is not a public address/);
  assert.match(await refusal('https://[::ffff:169.254.169.254]/'), /not a public address/);
  assert.match(await refusal('https://mixed.example/'), /10\.0\.0\.5, which is not a public address/);
  assert.match(await refusal('https://inward.example/'), /169\.254\.169\.254/);
  assert.match(await refusal('https://nowhere.example/'), /does not resolve \(ENOTFOUND\)/);
  assert.match(await refusal('https://2130706433/'), /127\.0\.0\.1/, 'a decimal IPv4 host is normalised by URL, then refused');
});

test('with allowPrivate: http:// and loopback pass; other schemes still do not', async () => {
  const target = await resolveSafeTarget('http://127.0.0.1:9/x', { allowPrivate: true, resolve });
  assert.equal(target.address, '127.0.0.1');
  assert.equal(await refusal('ftp://127.0.0.1/', true), 'must be an http:// or https:// URL');
});
