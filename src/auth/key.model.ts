import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `all`: the spec's operations and the feeds; `admin`: operator routes; `bank`: bank data unmasked;
 * `fulfilment`: shipments, payments, refunds and returns reported back (by a warehouse or an ERP).
 */
export type Permission = 'all' | 'admin' | 'bank' | 'fulfilment';
export const PERMISSIONS: readonly Permission[] = ['all', 'admin', 'bank', 'fulfilment'];

/**
 * What an operation needs of the calling key: a permission, or `any` — any valid key whatever its
 * permissions (what a key may learn of itself, such as GET /keys/current).
 */
export type Requirement = Permission | 'any';

/** What an operator may do besides: `admin` records shipments, payments and the like too. */
const GRANTED_ALSO_BY: Partial<Record<Permission, Permission>> = { fulfilment: 'admin' };

/** Whether the key may do what needs `permission`: it has it, or the permission that grants it too. */
export function hasPermission(key: AuthenticatedKey, permission: Requirement): boolean {
  if (permission === 'any' || key.permissions.has(permission)) return true;
  const also = GRANTED_ALSO_BY[permission];
  return also !== undefined && key.permissions.has(also);
}

/** The caller behind a request, once its key is verified. */
export interface AuthenticatedKey {
  readonly id: string;
  readonly name: string;
  readonly permissions: ReadonlySet<Permission>;
}

/**
 * A revocation takes effect this long after it is written (the row holds that instant): every
 * process re-reads a key it trusts within KEY_CACHE_MS, so by then each one knows the instant and
 * all of them refuse from it on — none refuses while another still accepts. The rest of the delay
 * covers the revoking transaction's commit.
 */
export const REVOCATION_DELAY_MS = 750;
/** How long a process trusts a key's row without reading it again; well below REVOCATION_DELAY_MS. */
export const KEY_CACHE_MS = 250;
/** LastUsedAt is written at most this often per key: a request never waits for a write. */
export const LAST_USED_EVERY_MS = 60_000;

const KEY_PREFIX = 'og_';
/** How many leading characters of a key identify it in listings (`og_` + 9 random characters). */
export const KEY_ID_LENGTH = 12;

/** A new key: 40 random bytes (320 bits) after a readable prefix. Shown once, stored only as a hash. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(40).toString('base64url');
}

/** One-shot `crypto.hash` (Node ≥ 20.12) is about 3× cheaper than a Hash object per request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** SHA-256 hex: keys carry ≥ 256 random bits, so a slow password hash would add nothing. */
export const hashKey: (key: string) => string = oneShot
  ? (key) => oneShot('sha256', key, 'hex')
  : (key) => createHash('sha256').update(key, 'utf8').digest('hex');

export const keyId = (key: string): string => key.slice(0, KEY_ID_LENGTH);

/** Constant-time equality of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Parses `all,admin,bank` (any order, spaces allowed); throws on an unknown name. */
export function parsePermissions(text: string): Permission[] {
  const names = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) throw new Error(`at least one permission is needed: ${PERMISSIONS.join(', ')}`);
  for (const n of names)
    if (!(PERMISSIONS as readonly string[]).includes(n)) throw new Error(`unknown permission '${n}' (known: ${PERMISSIONS.join(', ')})`);
  return [...new Set(names)] as Permission[];
}
