import { AggregatorRegistry, type Registry } from 'prom-client';
import { answerWorkers, askPrimary } from './cluster-channel.js';

// With WORKERS > 1 a scrape lands on any one worker; it must still see the whole service. The
// worker that serves /metrics asks the primary, which collects every worker's registry through
// prom-client's AggregatorRegistry (counters and histograms summed) and sends the text back.
const TOPIC = 'ordergate:metrics';
const TIMEOUT_MS = 5000;

/** In the primary: answers workers' requests for the metrics of all workers together. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  answerWorkers<null, string>(TOPIC, () => aggregator.clusterMetrics());
}

/**
 * In a cluster worker: offers the registry to the primary's aggregation and returns a function
 * that fetches the aggregate. Outside a cluster: undefined (the local registry is the whole story).
 */
export function clusterMetricsClient(registry: Registry): (() => Promise<string>) | undefined {
  const ask = askPrimary<null, string>(TOPIC, TIMEOUT_MS);
  if (!ask) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs this worker's answer to the primary's collection requests
  return () => ask(null);
}
