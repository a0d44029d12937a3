import type { AuditRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';
import type { AuditRecord } from './audit.actions.js';

/** An audit entry as stored: the generated sequence is a plain number once read. */
export type StoredAudit = Omit<AuditRow, 'sequence'> & { sequence: number };

const stored = (row: StoredAudit | AuditRow): StoredAudit => ({
  ...(row as StoredAudit),
  sequence: Number(row.sequence),
  at: Number(row.at),
});

/** All SQL about the audit log. */
export const auditRepository = {
  async insert(db: DbHandle, entry: AuditRecord, at: number): Promise<number> {
    const res = await db
      .insertInto('audit_log')
      .values({
        at,
        key_id: entry.keyId,
        action: entry.action,
        resource_type: entry.resourceType,
        resource_ids: JSON.stringify(entry.resourceIds),
      })
      .returning('sequence')
      .executeTakeFirstOrThrow();
    return Number(res.sequence);
  },

  /** Entries with a sequence above `after` (and at or after `since`), ascending, at most `take`. */
  async list(db: DbHandle, after: number, take: number, since?: number): Promise<StoredAudit[]> {
    let q = db.selectFrom('audit_log').selectAll().where('sequence', '>', after);
    if (since !== undefined) q = q.where('at', '>=', since);
    return (await q.orderBy('sequence').limit(take).execute()).map(stored);
  },
};
