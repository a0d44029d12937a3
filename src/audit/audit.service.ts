import type { Store } from '../store/store.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import type { AuditRecord } from './audit.actions.js';
import { auditRepository, type StoredAudit } from './audit.repository.js';

/** Records one audit entry (a write of its own through the door). */
export const recordAuditWrite = defineWrite('audit.record', (unit, entry: AuditRecord) =>
  auditRepository.insert(unit.db, entry, Date.now()),
);

/** Every write of the audit module (see src/write-registry.ts). */
export const auditWrites = [recordAuditWrite];

/**
 * Records an action. A read cannot share a transaction with its record (reads go to the reader,
 * outside the door), so a read records in a write of its own — before the data leaves, so that
 * nothing is revealed that the log does not hold. A change records in the same unit as the change
 * where it can (recordAuditWrite.run inside its command), else right after it.
 */
export const recordAudit = (writes: WriteDoor, entry: AuditRecord): Promise<number> => writes.run(recordAuditWrite, entry);

/** Entries after a sequence, ascending; `since` (epoch ms) for the CLI. */
export const listAudit = (store: Store, after: number, take: number, since?: number): Promise<StoredAudit[]> =>
  auditRepository.list(store.reader, after, take, since);
