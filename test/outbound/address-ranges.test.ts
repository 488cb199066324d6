// Which addresses an outbound request may reach (docs/protocol.md §16.6): a table of every refused range, at its
// edges, in every form that carries an IPv4 address, and public neighbours that must pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPublicAddress, parseIpv6 } from '../../src/outbound/address-ranges.ts';

const REFUSED: readonly [string, string][] = [
  ['0.0.0.0', 'this network'], ['0.255.255.255', 'this network, last'],
  ['10.0.0.0', 'private 10/8'], ['10.255.255.255', 'private 10/8, last'],
  ['100.64.0.0', 'CGNAT'], ['100.127.255.255', 'CGNAT, last'],
  ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback, high'],
  ['169.254.0.1', 'link-local'], ['169.254.169.254', 'cloud metadata'],
  ['172.16.0.0', 'private 172.16/12'], ['172.31.255.255', 'private 172.16/12, last'],
  ['192.0.0.8', 'IETF protocol assignments'], ['192.0.2.1', 'TEST-NET-1'], ['192.88.99.1', '6to4 relay'],
  ['192.168.0.1', 'private 192.168/16'], ['192.168.255.255', 'private 192.168/16, last'],
  ['198.18.0.1', 'benchmarking'], ['198.19.255.255', 'benchmarking, last'],
  ['198.51.100.7', 'TEST-NET-2'], ['203.0.113.9', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'], ['239.255.255.255', 'multicast, last'],
  ['240.0.0.1', 'reserved'], ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'], ['::1', 'IPv6 loopback'], ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'], ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:192.168.1.1', 'IPv4-mapped private'], ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex'],
  ['::ffff:0:10.0.0.1', 'IPv4-translated private'], ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback'], ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'], ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::', '6to4 of loopback'], ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['100::1', 'discard-only'], ['2001::1', 'Teredo'], ['2001:10::1', 'ORCHID'], ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation (RFC 9637)'],
  ['fc00::1', 'unique local'], ['fd12:3456::1', 'unique local fd'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local with a zone'],
  ['febf::1', 'link-local, last'], ['fec0::1', 'site-local'], ['ff02::1', 'multicast'], ['ff0e::1', 'global multicast'],
  ['::ffff:ffff:ffff', 'IPv4-mapped broadcast'],
  ['not-an-address', 'unparsable'], ['1.2.3', 'three parts'], ['1.2.3.256', 'a part over 255'], ['01.2.3.4', 'a leading zero (octal?)'],
  ['1::2::3', 'two ::'], ['12345::', 'a group too long'], ['', 'empty'],
];

const PUBLIC: readonly [string, string][] = [
  ['1.1.1.1', 'Cloudflare'], ['8.8.8.8', 'Google'], ['9.255.255.255', 'just below 10/8'], ['11.0.0.0', 'just above 10/8'],
  ['100.63.255.255', 'just below CGNAT'], ['100.128.0.0', 'just above CGNAT'], ['126.255.255.255', 'just below loopback'],
  ['128.0.0.0', 'just above loopback'], ['169.253.255.255', 'below link-local'], ['172.15.255.255', 'below 172.16/12'],
  ['172.32.0.0', 'above 172.16/12'], ['192.167.255.255', 'below 192.168/16'], ['192.169.0.0', 'above 192.168/16'],
  ['198.17.255.255', 'below benchmarking'], ['198.20.0.0', 'above benchmarking'], ['223.255.255.255', 'below multicast'],
  ['2001:4860:4860::8888', 'Google DNS IPv6'], ['2606:4700:4700::1111', 'Cloudflare IPv6'], ['2001:200::1', 'just above 2001::/23'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'], ['64:ff9b::808:808', 'NAT64 of 8.8.8.8'], ['2002:808:808::1', '6to4 of 8.8.8.8'],
];

test('every non-public range is refused, at its edges and in every form that carries an IPv4 address', () => {
  for (const [address, what] of REFUSED) assert.equal(isPublicAddress(address), false, `${address} (${what}) must be refused`);
});

test('public addresses, right beside the refused ranges, pass', () => {
  for (const [address, what] of PUBLIC) assert.equal(isPublicAddress(address), true, `${address} (${what}) is public`);
});

test('IPv6 parsing: compressed, full, embedded dotted quad, zone', () => {
  assert.deepEqual([...parseIpv6('::ffff:1.2.3.4')!], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
  assert.deepEqual(parseIpv6('1:2:3:4:5:6:7:8'), parseIpv6('1:2:3:4:5:6:7:8%lo'));
  assert.equal(parseIpv6('1:2:3:4:5:6:7'), undefined);
  assert.equal(parseIpv6('1:2:3:4:5:6:7:8:9'), undefined);
  assert.equal(parseIpv6('1:2:3:4:5:6:7::8'), undefined, ':: must stand for at least one group');
});
