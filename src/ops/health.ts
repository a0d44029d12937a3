import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors.js';
import type { Store } from '../store/store.js';
import type { LimitScope } from './rate-limit.js';

/**
 * Liveness (the process answers) and readiness (the store answers); no key needed. With a read
 * replica, readiness also reports it (Up with its lag, or Down) without depending on it: reads
 * it would answer go to the primary meanwhile. With REDIS_URL it reports where the limits are
 * counted (`Limits`: Shared, or Local while Redis does not answer), also without depending on it:
 * each server then counts on its own.
 */
export function registerHealth(app: FastifyInstance, store: Store, limitScope: () => LimitScope | undefined = () => undefined): void {
  app.get('/health/live', async () => ({ Status: 'Live' }));
  app.get('/health/ready', async () => {
    const replica = store.replica?.status();
    try {
      await store.ping();
    } catch {
      throw unavailable('The store does not answer');
    }
    const scope = limitScope();
    const limits = scope ? { Limits: { Status: scope } } : {};
    if (!replica) return { Status: 'Ready', ...limits };
    const r = await replica;
    return {
      Status: 'Ready',
      ...limits,
      Replica: r.up
        ? { Status: 'Up', LagSeconds: Math.round((r.lagSeconds ?? 0) * 1000) / 1000, Streaming: r.streaming ?? false }
        : { Status: 'Down' },
    };
  });
}
