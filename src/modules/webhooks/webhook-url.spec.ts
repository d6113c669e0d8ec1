/**
 * The webhook SSRF rule (docs/events.md "SSRF rule"; issue 27 item 14): every spelling of an
 * address is judged by its parsed binary form against the IANA special-purpose registries, at
 * registration (checkWebhookTarget) and on the address the socket actually connects to
 * (sendWebhook: an IP literal in the URL, and every address a host name resolves to, so DNS
 * rebinding between the check and the connect cannot pass).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { sendWebhook } from './webhook-sender.js';
import { checkWebhookTarget, isPrivateAddress, WebhookUrlError, type ResolveAll } from './webhook-url.js';

/** A resolver answering `addresses` for every name (the DNS an attacker controls). */
const resolvingTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

/** Addresses a resolver may answer (canonical or not) that production must never dial. */
const BLOCKED_ADDRESSES: [string, string][] = [
  ['0.0.0.0', 'this network 0/8'],
  ['0.1.2.3', 'this network 0/8'],
  ['10.1.2.3', 'private 10/8'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['100.127.255.254', 'CGNAT 100.64/10'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.254', 'private 172.16/12'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast (deprecated)'],
  ['192.168.1.1', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.254', 'benchmarking 198.18/15'],
  ['198.51.100.1', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback, uncompressed'],
  ['::7f00:1', 'IPv4-compatible (deprecated ::/96) of 127.0.0.1'],
  ['::127.0.0.1', 'IPv4-compatible, dotted'],
  ['::a9fe:a9fe', 'IPv4-compatible of 169.254.169.254'],
  ['::5db8:d822', 'IPv4-compatible of a public address: ::/96 is not globally reachable'],
  ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped, hex'],
  ['::FFFF:7F00:1', 'IPv4-mapped, upper case'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped, uncompressed'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped of 169.254.169.254'],
  ['::ffff:93.184.216.34', 'IPv4-mapped of a public address: ::ffff:0:0/96 is not globally reachable'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145), dotted'],
  ['::ffff:0:7f00:1', 'IPv4-translated, hex'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, hex'],
  ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix 64:ff9b:1::/48'],
  ['64:ff9b:1::5db8:d822', 'NAT64 local-use prefix, whatever it embeds'],
  ['64:ff9b:1:ffff::1', 'NAT64 local-use prefix'],
  ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
  ['2002:a00:1::', '6to4 of 10.0.0.1'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2001::1', 'Teredo 2001::/32'],
  ['2001:0:5db8:d822::1', 'Teredo'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['100::1', 'discard-only 100::/64'],
  ['5f00::1', 'segment routing 5f00::/16'],
  ['fc00::1', 'unique-local fc00::/7'],
  ['fd12:3456::1', 'unique-local fc00::/7'],
  ['fe80::1', 'link-local fe80::/10'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['febf::1', 'link-local fe80::/10'],
  ['fec0::1', 'site-local fec0::/10 (deprecated)'],
  ['ff02::1', 'multicast'],
  ['::2', 'in ::/8, reserved by the IETF'],
  ['not-an-address', 'not an address: refused'],
  ['', 'empty: refused'],
];

const PUBLIC_ADDRESSES: [string, string][] = [
  ['93.184.216.34', 'public IPv4'],
  ['1.1.1.1', 'public IPv4'],
  ['8.8.8.8', 'public IPv4'],
  ['100.63.255.255', 'just below CGNAT'],
  ['100.128.0.1', 'just above CGNAT'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:82b::200e', 'public IPv6'],
  ['64:ff9b::5db8:d822', 'NAT64 well-known prefix of a public address'],
  ['64:ff9b::93.184.216.34', 'NAT64 well-known prefix of a public address, dotted'],
  ['2002:5db8:d822::1', '6to4 of a public address'],
];

describe('isPrivateAddress: every spelling judged in binary form (IANA special-purpose registries)', () => {
  it.each(BLOCKED_ADDRESSES)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(PUBLIC_ADDRESSES)('allows %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('checkWebhookTarget in production: the URL as registered (POST and PATCH)', () => {
  const noDns: ResolveAll = async (host) => {
    throw new Error(`no DNS lookup expected for an IP literal, got ${host}`);
  };

  /** URLs whose host is an IP literal in some spelling, each a refused address once parsed. */
  const REFUSED_URLS: [string, string][] = [
    ['https://127.0.0.1/', 'dotted decimal'],
    ['https://2130706433/', 'one decimal number'],
    ['https://0x7f.1/', 'hex and a short form'],
    ['https://0x7f000001/', 'one hex number'],
    ['https://0177.0.0.1/', 'octal'],
    ['https://017700000001/', 'one octal number'],
    ['https://127.1/', 'two parts'],
    ['https://127.0.1/', 'three parts'],
    ['https://127.0.0.1./', 'trailing dot'],
    ['https://0/', 'zero'],
    ['https://0x0a.0.0.1/', '10.0.0.1 in hex'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://0xa9fea9fe/', 'cloud metadata, one hex number'],
    ['https://[::1]/', 'IPv6 loopback'],
    ['https://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, uncompressed'],
    ['https://[::]/', 'unspecified'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible, stored as [::7f00:1]'],
    ['https://[::7f00:1]/', 'IPv4-compatible, hex'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
    ['https://[::FFFF:7F00:1]/', 'IPv4-mapped, upper case'],
    ['https://[::ffff:0:127.0.0.1]/', 'IPv4-translated'],
    ['https://[64:ff9b::7f00:1]/', 'NAT64 well-known, hex'],
    ['https://[64:ff9b::127.0.0.1]/', 'NAT64 well-known, dotted'],
    ['https://[64:ff9b:1::7f00:1]/', 'NAT64 local-use'],
    ['https://[2002:7f00:1::]/', '6to4 of loopback'],
    ['https://[2001::1]/', 'Teredo'],
    ['https://[fd00::1]:8443/x', 'unique-local with a port'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fec0::1]/', 'site-local'],
    ['https://[ff02::1]/', 'multicast'],
  ];

  it.each(REFUSED_URLS)('refuses %s (%s) without a DNS lookup', async (url) => {
    await expect(checkWebhookTarget(url, true, noDns)).rejects.toThrow(WebhookUrlError);
    await expect(checkWebhookTarget(url, true, noDns)).rejects.toThrow(/non-public/);
  });

  it.each([
    ['https://93.184.216.34/hooks'],
    ['https://1572395042/hooks'], // 93.184.216.34 as one number: the URL parser makes it dotted
    ['https://93.184.216.34./hooks'],
    ['https://[2606:4700:4700::1111]/hooks'],
    ['https://[64:ff9b::5db8:d822]/hooks'],
  ])('allows %s', async (url) => {
    await expect(checkWebhookTarget(url, true, noDns)).resolves.toBeInstanceOf(URL);
  });

  it.each(BLOCKED_ADDRESSES.filter(([address]) => address.includes('.') || address.includes(':')))(
    'refuses a host name resolving to %s (%s)',
    async (address) => {
      await expect(
        checkWebhookTarget('https://hooks.example.com/x', true, resolvingTo(address)),
      ).rejects.toThrow(/non-public/);
    },
  );

  it('refuses a host name when any one of its addresses is non-public, and one that resolves to nothing', async () => {
    await expect(
      checkWebhookTarget('https://hooks.example.com/x', true, resolvingTo('93.184.216.34', '::7f00:1')),
    ).rejects.toThrow(/non-public/);
    await expect(checkWebhookTarget('https://hooks.example.com/x', true, resolvingTo())).rejects.toThrow(
      WebhookUrlError,
    );
    await expect(
      checkWebhookTarget('https://hooks.example.com/x', true, resolvingTo('93.184.216.34', '2606:4700::1')),
    ).resolves.toBeInstanceOf(URL);
  });

  it('outside production local URLs are allowed, unresolved (as before)', async () => {
    for (const url of [
      'http://127.0.0.1:3000/x',
      'http://[::1]/x',
      'http://[::7f00:1]/',
      'http://localhost/x',
    ])
      await expect(checkWebhookTarget(url, false, noDns)).resolves.toBeInstanceOf(URL);
  });
});

describe('sendWebhook: the address the socket connects to is checked (production)', () => {
  let server: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => (connections = 0));

  const send = (url: string, production: boolean, resolveAll?: ResolveAll) =>
    sendWebhook(new URL(url), { 'webhook-id': 'msg_1' }, '{}', 2_000, production, resolveAll);

  it('a host name resolving to a blocked address is refused before any connection is made', async () => {
    const errors: (string | null)[] = [];
    for (const address of [
      '127.0.0.1',
      '::ffff:127.0.0.1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '::ffff:0:7f00:1',
    ]) {
      const result = await send(`http://rebind.example:${port}/hooks`, true, resolvingTo(address));
      expect([address, result.status, result.error]).toEqual([
        address,
        null,
        expect.stringMatching(/non-public/),
      ]);
      errors.push(result.error);
    }
    expect(connections).toBe(0);
    // Said as a refusal in the delivery's history, as a refusal at the pre-delivery check is.
    for (const error of errors) expect(error).toMatch(/^refused: /);
  });

  it('DNS rebinding: public when registered and checked, loopback when dialled, is refused', async () => {
    let calls = 0;
    const rebinding: ResolveAll = async () => [
      calls++ === 0 ? { address: '93.184.216.34', family: 4 } : { address: '127.0.0.1', family: 4 },
    ];
    const url = await checkWebhookTarget(`https://rebind.example:${port}/hooks`, true, rebinding);
    const result = await send(url.toString().replace('https:', 'http:'), true, rebinding);
    expect(result).toMatchObject({ status: null, error: expect.stringMatching(/non-public/) });
    expect(calls).toBe(2);
    expect(connections).toBe(0);
  });

  it('an IP literal in the URL (no lookup happens for it) is checked too', async () => {
    for (const host of ['127.0.0.1', '[::ffff:7f00:1]', '[::7f00:1]', '[64:ff9b::7f00:1]']) {
      const result = await send(`http://${host}:${port}/hooks`, true);
      expect([host, result.status, result.error]).toEqual([host, null, expect.stringMatching(/non-public/)]);
    }
    expect(connections).toBe(0);
  });

  it('outside production the resolved local receiver is called (the rule is production only)', async () => {
    const result = await send(`http://rebind.example:${port}/hooks`, false, resolvingTo('127.0.0.1'));
    expect(result).toMatchObject({ status: 204, error: null });
    expect(await send(`http://127.0.0.1:${port}/hooks`, false)).toMatchObject({ status: 204 });
    expect(connections).toBe(2);
  });
});
