/** The API keys' administration over HTTP as the rest of the service sees it: its operations and writes, and the bootstrap key. */
export { keyOperations } from './key.operations.js';
export { ensureBootstrapKey, keyApiWrites } from './key.writes.js';
