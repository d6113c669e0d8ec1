/**
 * Which webhook URLs the service will call (docs/events.md, "SSRF"). Everywhere: http(s) only, no
 * user:password, at most 2048 characters. In production: https only, and every address the host
 * resolves to must be public: loopback, link-local, private (RFC 1918), unique-local, CGNAT,
 * multicast and reserved ranges are refused. Checked when an endpoint is registered or changed
 * AND before every delivery (DNS can change), and the connection itself only goes to an address
 * that passed (the sender's `lookup`).
 */
import { lookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { promisify } from 'node:util';

const lookupAll = promisify(lookup) as unknown as (
  host: string,
  options: { all: true; verbatim?: boolean },
) => Promise<LookupAddress[]>;

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is in a range webhooks may not reach in production. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4-mapped / -compatible (::ffff:10.0.0.1, ::ffff:a00:1) and NAT64: judge the embedded IPv4.
  const mapped = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const n = (parseInt(hexMapped[1]!, 16) << 16) | parseInt(hexMapped[2]!, 16);
    return BLOCKED.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), 'ipv4');
  }
  return BLOCKED.check(lower, 'ipv6');
}

export class WebhookUrlError extends Error {
  override readonly name = 'WebhookUrlError';
}

/** The URL's shape (both environments); throws WebhookUrlError with a reason a partner can act on. */
export function parseWebhookUrl(raw: string, production: boolean): URL {
  if (raw.length > 2048) throw new WebhookUrlError('url must be at most 2048 characters.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('url must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookUrlError('url must be an http(s) URL.');
  if (production && url.protocol !== 'https:') throw new WebhookUrlError('url must use https.');
  if (url.username || url.password)
    throw new WebhookUrlError('url must not contain a user name or password.');
  if (url.hash) throw new WebhookUrlError('url must not contain a fragment (#…).');
  return url;
}

/** The host's addresses (an IP literal is its own); none may be private in production. */
export async function checkWebhookTarget(raw: string, production: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw, production);
  if (!production) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupAll(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new WebhookUrlError(`url's host ${host} does not resolve.`);
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw new WebhookUrlError(
      'url resolves to a loopback, link-local, private or otherwise non-public address; webhooks only go to public addresses.',
    );
  return url;
}

/**
 * A `lookup` for http.request that refuses non-public addresses in production, so the connection
 * goes only where the check allowed (no DNS rebinding between the check and the connect).
 */
export function guardedLookup(production: boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    lookup(hostname, { ...options, all: true, verbatim: true } as never, (error, addresses) => {
      const list = addresses as unknown as LookupAddress[];
      if (error) return callback(error, []);
      if (production && (list.length === 0 || list.some((a) => isPrivateAddress(a.address))))
        return callback(new WebhookUrlError('The endpoint host resolves to a non-public address.'), []);
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
