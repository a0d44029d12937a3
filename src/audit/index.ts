/** The audit log as the rest of the service sees it: recording an action (alone or in a unit of work) and reading the log. */
export { CLI_KEY_ID } from './audit.actions.js';
export { auditOperations } from './audit.operations.js';
export { auditWrites, listAudit, recordAudit, recordAuditWrite } from './audit.service.js';
