// Where an outbound request may go (docs/protocol.md §16.6): the URL parsed, its host resolved once (every address),
// each address judged, and the checked address pinned for the connection, so a second lookup (DNS rebinding)
// cannot send it elsewhere. https only, public addresses only, unless the operator allows private targets.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from './address-ranges.ts';

/** Resolves a host name to every address it has (node:dns by default; tests pass their own). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface TargetPolicy {
  /** http:// and loopback, private and other non-public addresses too (--webhook-allow-private). */
  allowPrivate: boolean;
  resolve?: ResolveHost;
}

/** A URL whose host was resolved and checked: connect to `address`, send `url.host` as Host and SNI. */
export interface SafeTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a target was refused; `field`-free so both a 422 and a delivery's error can say it. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
}

const resolveWithDns: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The URL if it is one a delivery may be sent to at all (scheme, no credentials); throws TargetRefusedError. */
export function parseTargetUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefusedError('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new TargetRefusedError(allowPrivate ? 'must be an http:// or https:// URL' : 'must be an https:// URL');
  }
  if (url.username !== '' || url.password !== '') throw new TargetRefusedError('must not carry credentials');
  if (url.hash !== '') throw new TargetRefusedError('must not have a fragment');
  return url;
}

function readHost(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Resolves and checks the URL's host: refused when any of its addresses is not public (a name that points both
 * inward and outward is refused whole, so no choice of address can go inward). Answers the first address, pinned.
 */
export async function resolveSafeTarget(text: string, policy: TargetPolicy): Promise<SafeTarget> {
  const url = parseTargetUrl(text, policy.allowPrivate);
  const host = readHost(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (policy.resolve ?? resolveWithDns)(host);
    } catch (error) {
      throw new TargetRefusedError(`host ${host} does not resolve (${(error as { code?: string }).code ?? 'no address'})`);
    }
  }
  if (addresses.length === 0) throw new TargetRefusedError(`host ${host} has no address`);
  if (!policy.allowPrivate) {
    const inward = addresses.find((entry) => !isPublicAddress(entry.address));
    if (inward) throw new TargetRefusedError(`host ${host} resolves to ${inward.address}, which is not a public address`);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
