import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../store/store.js';
import { clusterMetricsClient } from './cluster-metrics.js';
import { registerReplicaMetrics } from './replica-metrics.js';
import { RouteMetrics } from './route-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's Prometheus registry and the /metrics handler (the metrics plugin). */
    readonly metrics: Metrics;
  }
}

export interface Metrics {
  readonly registry: Registry;
  /** The `/metrics` route handler (Prometheus text format). */
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<string>;
}

/**
 * Prometheus metrics: requests by method, route and status, a latency histogram with the same
 * labels, and Node's own. The route label is the route pattern (`/customer/:CustomerId`) or
 * `unmatched`, so its values stay few whatever clients send. With WORKERS > 1, `/metrics` answers
 * for all workers together (see cluster-metrics.ts).
 */
function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ordergate_' });
  const routes = new RouteMetrics(
    registry,
    { requests: 'ordergate_http_requests_total', latency: 'ordergate_http_request_duration_seconds' },
    { requests: 'HTTP requests by method, route and status', latency: 'HTTP request latency by method, route and status' },
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  app.addHook('onResponse', (request, reply, done) => {
    routes.tally(request.routeOptions.url ?? 'unmatched', reply.statusCode, request.method).observe(reply.elapsedTime / 1000);
    done();
  });
  const fromCluster = clusterMetricsClient(registry);
  return {
    registry,
    async handler(request, reply) {
      reply.header('content-type', registry.contentType);
      if (fromCluster) {
        try {
          return await fromCluster();
        } catch (err) {
          request.log.warn({ err }, 'cluster metrics unavailable; answering with this worker only');
        }
      }
      return registry.metrics();
    },
  };
}

/**
 * Requests counted at the root, so that 404s and every other error response are measured too; with
 * a read replica its state as well. The registry is `app.metrics` for the modules' own metrics.
 */
export const metrics = fp(
  (app, opts: { readonly store: Pick<Store, 'replica'> }, done) => {
    const m = registerMetrics(app);
    if (opts.store.replica) registerReplicaMetrics(m.registry, opts.store.replica);
    app.decorate('metrics', m);
    done();
  },
  { name: 'metrics' },
);
