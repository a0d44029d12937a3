/** API keys as the rest of the service sees them: who a request's key is, what it may do, and the keys' administration. */
export { generateKey, parsePermissions, PERMISSIONS, type AuthenticatedKey, type Permission, type Requirement } from './key.model.js';
export { Authenticator, presentedKey, REALM, requirePermission } from './key.authenticator.js';
export { keyRepository } from './key.repository.js';
export { createKey, keyRow, keyWrites, listKeys, markKeyUsedWrite, refusedFromNow, revokeKey } from './key.service.js';
