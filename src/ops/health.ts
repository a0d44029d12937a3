import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors.js';
import type { Store } from '../store/store.js';

/** Liveness (the process answers) and readiness (the store answers); no key needed. */
export function registerHealth(app: FastifyInstance, store: Store): void {
  app.get('/health/live', async () => ({ Status: 'Live' }));
  app.get('/health/ready', async () => {
    try {
      await store.ping();
    } catch {
      throw unavailable('The store does not answer');
    }
    return { Status: 'Ready' };
  });
}
