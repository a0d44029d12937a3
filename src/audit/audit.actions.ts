/** Every action the audit log records: adding one is one line here. */
export const AUDIT_ACTIONS = [
  'bank.read',
  'customer.export',
  'customer.erase',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotate',
  'webhook.replay',
  'key.create',
  'key.revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The KeyId of actions taken with the CLI (no API key is involved). */
export const CLI_KEY_ID = 'cli';

/** One thing to record: who did what to which resources — ids only, never values. */
export interface AuditRecord {
  readonly keyId: string;
  readonly action: AuditAction;
  readonly resourceType: string;
  readonly resourceIds: readonly string[];
}
