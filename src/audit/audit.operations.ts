import { Type, type Static } from '@sinclair/typebox';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import { WireDate } from '../wire/schema-types.js';
import { wireDate } from '../wire/serializer.js';
import type { Store } from '../store/store.js';
import { AUDIT_ACTIONS } from './audit.actions.js';
import type { StoredAudit } from './audit.repository.js';
import { listAudit } from './audit.service.js';

/** Default and most entries of one answer. */
export const AUDIT_TAKE = 1000;
export const MAX_AUDIT_TAKE = 10_000;

export const GetAuditLogRequest = Type.Object(
  {
    After: Type.Optional(Type.Integer({ minimum: 0, description: 'Only entries with a Sequence above this (the last one seen).' })),
    Take: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_AUDIT_TAKE,
        description: `Most entries (default ${AUDIT_TAKE}, at most ${MAX_AUDIT_TAKE}).`,
      }),
    ),
  },
  { $id: 'GetAuditLog' },
);

export const AuditEntry = Type.Object(
  {
    Sequence: Type.Integer(),
    At: WireDate(),
    KeyId: Type.String({ description: 'The id keys list prints, or cli.' }),
    Action: Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a))),
    ResourceType: Type.String(),
    ResourceIds: Type.Array(Type.String()),
  },
  { $id: 'AuditEntry' },
);

const toEntry = (e: StoredAudit) => ({
  Sequence: e.sequence,
  At: wireDate(e.at),
  KeyId: e.key_id,
  Action: e.action as Static<typeof AuditEntry>['Action'],
  ResourceType: e.resource_type,
  ResourceIds: JSON.parse(e.resource_ids) as string[],
});

/** The audit log for operators. */
export function auditOperations(store: Store): AnyOperation[] {
  return [
    defineOperation({
      name: 'GetAuditLog',
      tag: 'Operator',
      summary: 'The audit log: unmasked bank-data reads, exports, erasures, webhook and key changes (operator).',
      description: 'Entries with Sequence above After, ascending; ids only, never values.',
      routes: [{ method: 'GET', path: '/audit/' }],
      permission: 'admin',
      request: GetAuditLogRequest,
      response: Type.Array(AuditEntry),
      handle: async (req) => (await listAudit(store, req.After ?? 0, req.Take ?? AUDIT_TAKE)).map(toEntry),
    }),
  ];
}
