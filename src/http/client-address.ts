// The client's address for per-address limits: the socket's peer, or behind a trusted proxy the address it saw.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * With trustProxy, the LAST X-Forwarded-For entry: the one our own reverse proxy appended for the peer it
 * saw. Entries further left were sent by the client and can say anything, so they are never used.
 * IPv6 addresses count per /64, the block one subscriber usually holds; IPv4-mapped ones as IPv4.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    // Repeated header lines count as one list (RFC 9110 §5.3): the last line's last entry.
    const last = header === undefined ? undefined : [header].flat().join(',').split(',').at(-1)?.trim();
    if (last && isIP(last) !== 0) address = last;
  }
  return addressKey(address);
}

/** One key per IPv4 address or per IPv6 /64 prefix. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
