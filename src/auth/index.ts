/** API keys as the rest of the service sees them: who a request's key is, what it may do, and the keys' administration. */
export { parsePermissions, type AuthenticatedKey, type Permission } from './api-keys.js';
export { Authenticator, presentedKey, REALM, requirePermission } from './authenticator.js';
export { createKey, ensureBootstrapKey, keyWrites, listKeys, revokeKey } from './key-service.js';
