import type { IncomingHttpHeaders } from 'node:http';
import { missingPermission, unauthenticated } from '../errors.js';
import type { Store } from '../store/store.js';
import {
  hashKey,
  hasPermission,
  KEY_CACHE_MS,
  LAST_USED_EVERY_MS,
  sameHash,
  type AuthenticatedKey,
  type Permission,
  type Requirement,
} from './key.model.js';
import { keyRepository } from './key.repository.js';

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

interface Trusted {
  readonly key: AuthenticatedKey;
  /** From this instant on the key is refused (its row's `revoked_at`), or null. */
  readonly refusedFrom: number | null;
  /** Until when the row is trusted without reading it again. */
  readonly until: number;
  /** When LastUsedAt was last written (or read as written), as far as this process knows. */
  lastUsed: number;
}

/** Records that a key authenticated at `at` (in the background: the request does not wait). */
export type KeyUsed = (id: string, at: number) => void;

/**
 * Verifies API keys against the store. A key's row is trusted for KEY_CACHE_MS from the moment
 * its read began, so the hot path rarely touches the store. A revocation is stamped with the instant
 * it takes effect (REVOCATION_DELAY_MS after it is written): every process has read the row again
 * before that instant and refuses the key from it on, by its clock, so that once one process has
 * refused a key no other accepts it again. Unknown and revoked keys are not cached: a key created
 * a moment ago works at once.
 */
export class Authenticator {
  readonly #cache = new Map<string, Trusted>();

  constructor(
    private readonly store: Store,
    private readonly used?: KeyUsed,
  ) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    return this.authenticateNow(presented) ?? this.#authenticateRead(presented!);
  }

  /**
   * The key a request presents while its row is trusted without reading the store (almost every
   * request): undefined when the row must be read first (then `authenticate`). Throws as
   * `authenticate` does for a missing, overlong or refused key. Synchronous, so that the request
   * path waits for nothing it need not.
   */
  authenticateNow(presented: string | undefined): AuthenticatedKey | undefined {
    if (!presented) throw unauthenticated();
    if (presented.length > 512) throw unauthenticated(true);
    const hash = hashKey(presented);
    const now = Date.now();
    const trusted = this.#cache.get(hash);
    if (!trusted || trusted.until <= now) return undefined;
    return this.#accept(hash, trusted, now);
  }

  async #authenticateRead(presented: string): Promise<AuthenticatedKey> {
    const hash = hashKey(presented);
    const trusted = await this.#read(hash, Date.now());
    return this.#accept(hash, trusted, Date.now());
  }

  #accept(hash: string, trusted: Trusted, now: number): AuthenticatedKey {
    if (trusted.refusedFrom !== null && now >= trusted.refusedFrom) {
      this.#cache.delete(hash);
      throw unauthenticated(true);
    }
    if (this.used && now - trusted.lastUsed >= LAST_USED_EVERY_MS) {
      trusted.lastUsed = now;
      this.used(trusted.key.id, now);
    }
    return trusted.key;
  }

  async #read(hash: string, readAt: number): Promise<Trusted> {
    // The primary (never a replica), so that a revocation is seen as soon as it is committed.
    const row = await keyRepository.findByHash(this.store.reader, hash);
    if (!row || !sameHash(row.key_hash, hash)) {
      this.#cache.delete(hash);
      throw unauthenticated(true);
    }
    const before = this.#cache.get(hash);
    const trusted: Trusted = {
      key:
        before?.key.id === row.id
          ? before.key
          : { id: row.id, name: row.name, permissions: new Set(row.permissions.split(',') as Permission[]) },
      refusedFrom: row.revoked_at === null ? null : Number(row.revoked_at),
      until: readAt + KEY_CACHE_MS,
      lastUsed: Math.max(before?.lastUsed ?? 0, row.last_used_at === null ? 0 : Number(row.last_used_at)),
    };
    if (trusted.refusedFrom === null || trusted.refusedFrom > Date.now()) {
      if (!before && this.#cache.size >= CACHE_MAX) this.#cache.clear();
      this.#cache.set(hash, trusted);
    }
    return trusted;
  }
}

export function requirePermission(key: AuthenticatedKey, permission: Requirement): void {
  if (!hasPermission(key, permission)) {
    throw missingPermission(permission);
  }
}
