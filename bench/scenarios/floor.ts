import { load } from '../lib/load.js';
import { call, describe, loadNote, type Scenario } from './scenario.js';

/**
 * The service's cheapest route: Fastify with the service's hooks (request id, headers, metrics,
 * logger) and no key, no binding, no store. The distance from the yardstick to this is what the
 * framework costs; from this to a search is what the operation costs.
 */
export const floor: Scenario = {
  id: 'floor',
  label: 'GET /health/live (framework floor)',
  backends: ['sqlite'],
  yardstickRequests: [{ path: '/health/live' }],
  async run(ctx) {
    const first = await call(ctx.server, 'GET', '/health/live');
    if (first.status !== 200) return { status: 'failed', note: describe(first) };
    const result = await load({ url: ctx.server.url, requests: [{ path: '/health/live' }], servingPids: ctx.server.servingPids });
    return { status: 'ok', load: result, note: loadNote(result) };
  },
};
