import { openSecret } from '../webhook-settings/index.js';
import type { StoredEndpoint } from './webhook.repository.js';

/**
 * The secrets an attempt at `at` is signed with: the endpoint's current one, and during the overlap
 * after a rotation the previous one beside it.
 */
export function signingSecrets(endpoint: StoredEndpoint, secretKey: Buffer | undefined, at: number): string[] {
  const secrets = [openSecret(endpoint.secret, secretKey)];
  if (endpoint.previous_secret !== null && (endpoint.previous_secret_until ?? 0) > at)
    secrets.push(openSecret(endpoint.previous_secret, secretKey));
  return secrets;
}
