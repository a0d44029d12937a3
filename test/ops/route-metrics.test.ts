import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { RouteMetrics } from '../../src/ops/route-metrics.js';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const NAMES = { requests: 'ordergate_http_requests_total', latency: 'ordergate_http_request_duration_seconds' };
const HELP = { requests: 'HTTP requests by method, route and status', latency: 'HTTP request latency by method, route and status' };

/** The same observations counted by prom-client's own Counter and Histogram, and by RouteMetrics. */
function bothWays(observations: ReadonlyArray<readonly [string, number, string, number]>): { theirs: Registry; ours: Registry } {
  const theirs = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const counter = new Counter({ name: NAMES.requests, help: HELP.requests, labelNames, registers: [theirs] });
  const histogram = new Histogram({ name: NAMES.latency, help: HELP.latency, labelNames, buckets: BOUNDS, registers: [theirs] });
  const ours = new Registry();
  const routes = new RouteMetrics(ours, NAMES, HELP, BOUNDS);
  for (const [route, status, method, seconds] of observations) {
    const labels = { method, route, status };
    counter.labels(labels).inc();
    histogram.labels(labels).observe(seconds);
    routes.tally(route, status, method).observe(seconds);
  }
  return { theirs, ours };
}

// Routes in an order of first use, a label that needs escaping, values on and between the bounds and above the last.
const OBSERVATIONS = Array.from({ length: 2000 }, (_, i) => {
  const route = ['/orders/:OrderId', '/customer/', 'unmatched', '/x"y\\z\n'][i % 4]!;
  const seconds = i % 13 === 0 ? BOUNDS[i % BOUNDS.length]! : ((i * 7919) % 3500) / 1000;
  return [route, i % 3 === 0 ? 404 : 200, i % 5 === 0 ? 'POST' : 'GET', seconds] as const;
});

test('the requests and latency metrics are the text prom-client writes for the same requests', async () => {
  const { theirs, ours } = bothWays(OBSERVATIONS);
  const text = await ours.metrics();
  assert.equal(text, await theirs.metrics());
  assert.match(
    text,
    /ordergate_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/orders\/:OrderId",status="200"\} \d+/,
  );
});

test("the workers' metrics add up in the cluster's aggregate as prom-client's do", async () => {
  const { theirs, ours } = bothWays(OBSERVATIONS);
  const [a, b] = [await theirs.getMetricsAsJSON(), await ours.getMetricsAsJSON()];
  const aggregate = async (m: typeof a) =>
    AggregatorRegistry.aggregate([m, m] as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
  assert.equal(await aggregate(b), await aggregate(a));
});

test('a reset of the registry starts the tallies again', async () => {
  const { ours } = bothWays(OBSERVATIONS.slice(0, 10));
  ours.resetMetrics();
  assert.doesNotMatch(await ours.metrics(), /route=/);
  const routes = new RouteMetrics(new Registry(), NAMES, HELP, BOUNDS);
  routes.tally('/a', 200, 'GET').observe(0.002);
  routes.tally('/a', 200, 'GET').observe(3);
  const tally = routes.tally('/a', 200, 'GET');
  assert.equal(tally.count, 2);
  assert.deepEqual([...tally.perBucket], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
});
