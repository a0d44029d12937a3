import type { IncomingHttpHeaders } from 'node:http';
import { missingPermission, unauthenticated } from '../errors.js';
import type { Store } from '../store/store.js';
import { hashKey, sameHash, type AuthenticatedKey, type Permission } from './api-keys.js';
import { keyRepository } from './key-repository.js';

/** How long a verified key is trusted without asking the store: revocation takes effect within it. */
const CACHE_MS = 500;
const CACHE_MAX = 10_000;

export const REALM = 'ordergate';

/** The key presented by a request: `Bearer <key>`, or Basic with the key as user name. */
export function presentedKey(headers: IncomingHttpHeaders, queryKey: string | undefined): string | undefined {
  const auth = headers.authorization;
  if (auth) {
    const space = auth.indexOf(' ');
    const scheme = auth.slice(0, space === -1 ? auth.length : space).toLowerCase();
    const value = space === -1 ? '' : auth.slice(space + 1).trim();
    if (scheme === 'bearer') return value || undefined;
    if (scheme === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user = colon === -1 ? decoded : decoded.slice(0, colon);
      const password = colon === -1 ? '' : decoded.slice(colon + 1);
      return user || password || undefined;
    }
    return undefined;
  }
  return queryKey || undefined;
}

/** Verifies API keys against the store, with a short cache so the hot path rarely touches it. */
export class Authenticator {
  readonly #cache = new Map<string, { key: AuthenticatedKey; until: number }>();

  constructor(private readonly store: Store) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented) throw unauthenticated();
    if (presented.length > 512) throw unauthenticated(true);
    const hash = hashKey(presented);
    const now = Date.now();
    const cached = this.#cache.get(hash);
    if (cached && cached.until > now) return cached.key;
    const row = await keyRepository.findByHash(this.store.reader, hash);
    if (!row || row.revoked_at !== null || !sameHash(row.key_hash, hash)) {
      this.#cache.delete(hash);
      throw unauthenticated(true);
    }
    const key: AuthenticatedKey = {
      id: row.id,
      name: row.name,
      permissions: new Set(row.permissions.split(',') as Permission[]),
    };
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(hash, { key, until: now + CACHE_MS });
    return key;
  }
}

export function requirePermission(key: AuthenticatedKey, permission: Permission): void {
  if (!key.permissions.has(permission)) {
    throw missingPermission(permission);
  }
}
