/**
 * Which webhook URLs the service will call (docs/events.md, "SSRF"). Everywhere: http(s) only, no
 * user:password, at most 2048 characters. In production: https only, and every address the host
 * resolves to must be public: any address in the IANA special-purpose registries (loopback,
 * link-local, private, unique-local, CGNAT, multicast, documentation, reserved, IPv4-mapped and
 * -compatible forms, local NAT64, ...) is refused, judged on the parsed address (isPrivateAddress).
 * Checked when an endpoint is registered or changed AND before every delivery (DNS can change),
 * and the connection itself only goes to an address that passed (the sender's `lookup`, and
 * refusedLiteralHost for an IP literal, which Node dials without a lookup).
 */
import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';

const lookupAll = promisify(lookup) as unknown as (
  host: string,
  options: { all: true; verbatim?: boolean },
) => Promise<LookupAddress[]>;

/** Every address a host name resolves to. The system resolver; tests give their own. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolveAll: ResolveAll = (hostname) => lookupAll(hostname, { all: true, verbatim: true });

/** Global unicast (RFC 4291 §2.4): every globally reachable IPv6 address is in it but NAT64's. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): a translator sends it on to the IPv4 address in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** 6to4 (RFC 3056): tunnelled to the IPv4 address in bits 16-47. */
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/**
 * Whether an IP address is one webhooks may not reach in production: anything but a public
 * unicast address. Judged on the parsed binary address, so no spelling (compressed, dotted tail,
 * upper case, IPv4-compatible, -mapped, -translated, NAT64, 6to4) changes the answer; the ranges
 * are those of the IANA IPv4 and IPv6 special-purpose address registries as ipaddr.js classifies
 * them (its `unicast` is an address in none of them). IPv6 must moreover lie in 2000::/3, the
 * only space IANA allocates for global unicast, which leaves out ::/8 (unspecified, loopback,
 * IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96), 64:ff9b:1::/48
 * (local-use NAT64), 100::/64, 5f00::/16, fc00::/7, fe80::/10, fec0::/10 and ff00::/8 whatever
 * their classification. The two prefixes that reach an IPv4 host over the internet, the NAT64
 * well-known prefix and 6to4, are judged by the IPv4 address they carry. Anything that is not an
 * address a socket would connect to as it stands (isIP) is refused.
 */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 0) return true;
  try {
    return !isPublic(ipaddr.parse(address));
  } catch {
    return true;
  }
}

function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.match(NAT64_WELL_KNOWN)) return isPublic(embeddedIPv4(v6.parts[6]!, v6.parts[7]!));
  if (v6.match(SIX_TO_FOUR)) return isPublic(embeddedIPv4(v6.parts[1]!, v6.parts[2]!));
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

function embeddedIPv4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
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
export async function checkWebhookTarget(
  raw: string,
  production: boolean,
  resolveAll: ResolveAll = systemResolveAll,
): Promise<URL> {
  const url = parseWebhookUrl(raw, production);
  if (!production) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
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
 * Why the connection to an IP-literal host may not be made (production only), or null. Node
 * connects to a literal without calling the request's `lookup`, so guardedLookup never sees it.
 */
export function refusedLiteralHost(url: URL, production: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!production || isIP(host) === 0 || !isPrivateAddress(host)) return null;
  return `The endpoint address ${host} is non-public.`;
}

/**
 * A `lookup` for http.request that refuses non-public addresses in production, so the connection
 * goes only where the check allowed (no DNS rebinding between the check and the connect): the
 * socket connects to an address this lookup answered, and it answers only when every address of
 * the name passed.
 */
export function guardedLookup(production: boolean, resolveAll: ResolveAll = systemResolveAll) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolveAll(hostname).then(
      (all) => {
        if (production && (all.length === 0 || all.some((a) => isPrivateAddress(a.address))))
          return callback(new WebhookUrlError('The endpoint host resolves to a non-public address.'), []);
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const list = family ? all.filter((a) => a.family === family) : all;
        if (list.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }),
            [],
          );
        if (options.all) return callback(null, list);
        const first = list[0]!;
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, []),
    );
  };
}
