import { Type } from '@sinclair/typebox';
import type { ApiKeyRow } from '../store/database.js';
import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { withRules } from '../wire/request-schema.js';
import { WireDate } from '../wire/schema-types.js';
import { wireDate } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/unit.js';
import { keyRepository, listKeys, type Permission, PERMISSIONS } from '../auth/index.js';
import { unauthenticated } from '../errors.js';
import { createKeyAs, revokeKeyAs } from './key.writes.js';

// As `keys create --name`: `keys list` prints a name as one word.
const NAME = /^[A-Za-z0-9._@-]+$/;
const Name = Type.String({ minLength: 1, maxLength: 64, pattern: NAME.source, description: '1 to 64 letters, digits or . _ @ -' });
const Permissions = Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p))), {
  minItems: 1,
  maxItems: 10,
  description: `Any of ${PERMISSIONS.join(', ')}.`,
});
const Id = Type.String({ minLength: 1, maxLength: 100, description: 'The id `keys list` prints: the key’s first 12 characters.' });

export const ApiKey = Type.Object(
  {
    Id: Type.String(),
    Name: Type.String(),
    Permissions: Type.Array(Type.String()),
    CreatedAt: WireDate(),
    RevokedAt: Type.Union([
      WireDate({ description: 'From this instant every instance refuses the key: the revocation’s time plus 0.75 s.' }),
      Type.Null(),
    ]),
    LastUsedAt: Type.Union([WireDate({ description: 'When the key last authenticated, to the minute.' }), Type.Null()]),
  },
  { $id: 'ApiKey' },
);

export const ApiKeyWithKey = Type.Object(
  { ...ApiKey.properties, Key: Type.String({ description: 'The key itself: shown only in this answer, stored only as a hash.' }) },
  { $id: 'ApiKeyWithKey' },
);

export const CurrentKey = Type.Object(
  {
    Id: ApiKey.properties.Id,
    Name: ApiKey.properties.Name,
    Permissions: Type.Array(Type.String(), {
      description: 'As the key was created; `admin` grants `fulfilment` too.',
    }),
    CreatedAt: ApiKey.properties.CreatedAt,
    LastUsedAt: ApiKey.properties.LastUsedAt,
  },
  { $id: 'CurrentKey' },
);

/** The key the revocation example names (a key's Id is its first 12 characters). */
export const EXAMPLE_KEY_ID = 'og_012345678';

const toKey = (k: ApiKeyRow) => ({
  Id: k.id,
  Name: k.name,
  Permissions: k.permissions.split(','),
  CreatedAt: wireDate(Number(k.created_at))!,
  RevokedAt: wireDate(k.revoked_at === null ? null : Number(k.revoked_at)),
  LastUsedAt: wireDate(k.last_used_at === null ? null : Number(k.last_used_at)),
});

const toCurrentKey = (k: ApiKeyRow) => {
  const { Id, Name, Permissions, CreatedAt, LastUsedAt } = toKey(k);
  return { Id, Name, Permissions, CreatedAt, LastUsedAt };
};

/** API keys: the caller's own (any key), and (operator) list, create, revoke. The CLI's `keys` commands do the same. */
export function keyOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  return [
    defineOperation({
      name: 'GetCurrentKey',
      tag: 'Keys',
      summary: 'The calling key: its Id, Name and Permissions (any valid key; never the key itself).',
      description:
        'What a client may do with the key it holds, without trying: a console or an integration asks once after sign-in. Shows only the caller’s own key; an unknown or revoked key is answered 401 as by every route.',
      routes: [{ method: 'GET', path: '/keys/current' }],
      permission: 'any',
      request: Type.Object({}, { $id: 'GetCurrentKey' }),
      response: CurrentKey,
      handle: async (_req, call) => {
        // The primary, as the authenticator reads keys: the row the key was just accepted by.
        const row = await keyRepository.findById(store.reader, call.key.id);
        // Revoked or deleted between its acceptance and this read: as any later request would be answered.
        if (!row || (row.revoked_at !== null && Number(row.revoked_at) <= Date.now())) throw unauthenticated(true);
        return toCurrentKey(row);
      },
    }),
    defineOperation({
      name: 'ListKeys',
      tag: 'Keys',
      summary: 'Every API key (operator), revoked ones too; the keys themselves are never shown again.',
      routes: [{ method: 'GET', path: '/keys' }],
      permission: 'admin',
      request: Type.Object({}, { $id: 'ListKeys' }),
      response: Type.Array(ApiKey),
      handle: async () => (await listKeys(store)).map(toKey),
    }),
    defineOperation({
      name: 'CreateKey',
      tag: 'Keys',
      summary: 'Create an API key (operator); the answer shows the Key, once. It works at once, on every instance.',
      routes: [{ method: 'POST', path: '/keys' }],
      permission: 'admin',
      request: withRules(Type.Object({ Name, Permissions }, { $id: 'CreateKey' }), {
        Name: (rules, field, value) => {
          if (typeof value === 'string' && !NAME.test(value))
            rules.fail(field, 'RegularExpression', `'${field}' takes only letters, digits and . _ @ -`);
        },
      }),
      response: ApiKeyWithKey,
      successStatus: 201,
      example: { Name: 'erp', Permissions: ['all'] },
      handle: async (req, call) => {
        const { row, key } = await createKeyAs(writes, call.key.id, req.Name, req.Permissions as Permission[]);
        return { ...toKey(row), Key: key };
      },
    }),
    defineOperation({
      name: 'RevokeKey',
      tag: 'Keys',
      summary: 'Revoke an API key (operator): every instance refuses it from RevokedAt on, within a second.',
      description:
        'Once any instance has refused the key, none accepts it again. Revoking a revoked key answers it unchanged. The last unrevoked key with admin cannot be revoked (409 LastAdminKey).',
      routes: [{ method: 'POST', path: '/keys/{Id}/revoke' }],
      permission: 'admin',
      request: Type.Object({ Id }, { $id: 'RevokeKey' }),
      response: ApiKey,
      example: { Id: EXAMPLE_KEY_ID },
      notFound: 'No API key with this Id.',
      handle: async (req, call) => toKey(await revokeKeyAs(writes, call.key.id, req.Id)),
    }),
  ];
}
