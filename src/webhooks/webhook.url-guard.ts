import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a webhook URL is refused. */
export type WebhookUrlRefusal = 'scheme' | 'forbidden-address' | 'unresolvable' | 'malformed';

/** A usable URL (parsed), or why not. */
export type WebhookUrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: WebhookUrlRefusal };

export interface WebhookUrlOptions {
  /** WEBHOOK_ALLOW_PRIVATE: let webhooks reach loopback, private and other non-public addresses. */
  readonly allowPrivate: boolean;
}

/** The code of the error guardedLookup fails a connection with. */
export const FORBIDDEN_ADDRESS = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';

/** A webhook host that resolves to an address webhooks may not reach. */
export class ForbiddenAddressError extends Error {
  readonly code = FORBIDDEN_ADDRESS;
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(
      hostname === address
        ? `webhook host ${hostname} is a non-public address`
        : `webhook host ${hostname} resolves to the non-public address ${address}`,
    );
    this.name = 'ForbiddenAddressError';
  }
}

/**
 * Whether an address is anything but public unicast: ipaddr.js names every special range (loopback,
 * private, link-local, multicast, unspecified, carrier-grade NAT, unique-local, documentation,
 * reserved…), and only what it calls 'unicast' is left. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged
 * as the IPv4 address it reaches. Translation prefixes that embed an IPv4 address another way
 * (NAT64 64:ff9b::/96, 6to4, Teredo) are refused whole, since the embedded address may be private.
 */
export function isForbiddenAddress(address: string): boolean {
  if (isIP(address) === 0) return true;
  try {
    return ipaddr.process(address).range() !== 'unicast';
  } catch {
    // Whatever ipaddr.js cannot read is not known to be public; and this runs inside resolver
    // callbacks, where a throw would take the process down.
    return true;
  }
}

/**
 * Checks a webhook URL at registration: parses it, allows only http and https, and resolves the host
 * (every address it resolves to must be public unless allowPrivate). The same check runs again on
 * each connection (guardedLookup), since the name may resolve elsewhere by then.
 */
export async function checkWebhookUrl(url: string | URL, options: WebhookUrlOptions): Promise<WebhookUrlCheck> {
  const parsed = parseWebhookUrl(url);
  if (!parsed.ok) return parsed;
  const host = bareHostname(parsed.url);
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await dnsLookupAll(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: 'unresolvable' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
  if (!options.allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) return { ok: false, reason: 'forbidden-address' };
  return parsed;
}

/** Parses a webhook URL and checks its scheme, without looking the host up. */
export function parseWebhookUrl(url: string | URL): WebhookUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (parsed.hostname === '') return { ok: false, reason: 'malformed' };
  return { ok: true, url: parsed };
}

/** The URL's host as a resolver or isIP wants it: IPv6 literals without their brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** What resolves a name to all its addresses (dns.lookup with `all: true`, or a shared cache of it). */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http.request / https.request that fails the connection with a ForbiddenAddressError
 * when the host resolves to a non-public address (unless allowPrivate): the address is checked at the
 * moment it is connected to, so a name that answered with a public address at registration and a
 * private one now (DNS rebinding) cannot reach inside. Node does not call `lookup` for IP literals:
 * the caller checks those itself. `resolve` is replaceable for tests.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, '');
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`webhook host ${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      const forbidden = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
      // Refuse the name when any of its addresses is forbidden, as registration does, rather than
      // picking the public ones: a name that mixes both is not an ordinary receiver.
      if (forbidden) return callback(new ForbiddenAddressError(hostname, forbidden.address), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
