// Which IP addresses an outbound request may reach (docs/protocol.md §16.6): only public ones. Pure: an address in,
// a verdict out; the table is IANA's special-purpose registries (RFC 6890 and its updates) and every range that
// reaches this host, its network or a cloud's metadata service.

/** Ranges that are never public, IPv4. */
const IPV4_BLOCKED: readonly string[] = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // carrier-grade NAT (RFC 6598)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // 6to4 relay anycast (deprecated)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the broadcast address
];

/**
 * Ranges that are never public, IPv6, inside global unicast 2000::/3 (everything outside it is refused anyway:
 * ::, ::1, IPv4-compatible ::/96, 100::/64 discard, fc00::/7 unique local, fe80::/10 link-local, fec0::/10
 * site-local, ff00::/8 multicast). The forms that carry an IPv4 address are judged by that address instead.
 */
const IPV6_BLOCKED: readonly string[] = [
  '2001::/23', // IETF protocol assignments (Teredo, ORCHID, AMT, ...)
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
];

interface Range {
  bytes: Uint8Array;
  prefix: number;
}

function parseRange(text: string, parse: (address: string) => Uint8Array | undefined): Range {
  const [address, prefix] = text.split('/');
  const bytes = parse(address!);
  if (!bytes) throw new Error(`outbound: a bad range in the table: ${text}`);
  return { bytes, prefix: Number(prefix) };
}

/** The four bytes of a dotted-quad IPv4 address, or undefined. */
export function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(parts[i]!)) return undefined;
    const value = Number(parts[i]);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

/** The sixteen bytes of an IPv6 address (compressed, with an embedded dotted quad, without a zone), or undefined. */
export function parseIpv6(text: string): Uint8Array | undefined {
  let rest = text;
  if (rest.includes('%')) rest = rest.slice(0, rest.indexOf('%'));
  let tail: Uint8Array | undefined;
  const lastColon = rest.lastIndexOf(':');
  if (rest.slice(lastColon + 1).includes('.')) {
    tail = parseIpv4(rest.slice(lastColon + 1));
    if (!tail) return undefined;
    rest = `${rest.slice(0, lastColon + 1)}0:0`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const back = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...back];
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-f]{1,4}$/i.test(groups[i]!)) return undefined;
    const value = parseInt(groups[i]!, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  }
  if (tail) bytes.set(tail, 12);
  return bytes;
}

const V4 = IPV4_BLOCKED.map((text) => parseRange(text, parseIpv4));
const V6 = IPV6_BLOCKED.map((text) => parseRange(text, parseIpv6));
const GLOBAL_UNICAST = parseRange('2000::/3', parseIpv6);
/** Forms that carry an IPv4 address in their last four bytes: IPv4-mapped, NAT64 (RFC 6052), IPv4-translated. */
const CARRY_IPV4_LAST = ['::ffff:0:0/96', '64:ff9b::/96', '::ffff:0:0:0/96'].map((text) => parseRange(text, parseIpv6));
/** 6to4 (RFC 3056): the IPv4 address in bytes 2 to 5. */
const SIX_TO_FOUR = parseRange('2002::/16', parseIpv6);

function isInRange(bytes: Uint8Array, range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

function isPublicIpv4(bytes: Uint8Array): boolean {
  return !V4.some((range) => isInRange(bytes, range));
}

function isPublicIpv6(bytes: Uint8Array): boolean {
  const carrier = CARRY_IPV4_LAST.find((range) => isInRange(bytes, range));
  if (carrier) return isPublicIpv4(bytes.slice(12));
  if (isInRange(bytes, SIX_TO_FOUR)) return isPublicIpv4(bytes.slice(2, 6));
  return isInRange(bytes, GLOBAL_UNICAST) && !V6.some((range) => isInRange(bytes, range));
}

/** True only for an address on the public internet; anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4) return isPublicIpv4(v4);
  const v6 = parseIpv6(address);
  return v6 !== undefined && isPublicIpv6(v6);
}
