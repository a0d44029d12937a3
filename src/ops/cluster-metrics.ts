import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

// With WORKERS > 1 a scrape lands on any one worker; it must still see the whole service. The
// worker that serves /metrics asks the primary, which collects every worker's registry through
// prom-client's AggregatorRegistry (counters and histograms summed) and sends the text back.
const REQUEST = 'ordergate:metrics-request';
const RESPONSE = 'ordergate:metrics-response';
const TIMEOUT_MS = 5000;

interface MetricsMessage {
  readonly type?: string;
  readonly id?: string;
  readonly text?: string;
  readonly error?: string;
}

/** In the primary: answers workers' requests for the metrics of all workers together. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsMessage) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (err: unknown) => worker.send({ type: RESPONSE, id: message.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

/**
 * In a cluster worker: offers the registry to the primary's aggregation and returns a function
 * that fetches the aggregate. Outside a cluster: undefined (the local registry is the whole story).
 */
export function clusterMetricsClient(registry: Registry): (() => Promise<string>) | undefined {
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs this worker's answer to the primary's collection requests
  const pending = new Map<string, (m: MetricsMessage) => void>();
  process.on('message', (message: MetricsMessage) => {
    if (message?.type === RESPONSE && message.id) pending.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the primary did not answer with the cluster metrics'));
      }, TIMEOUT_MS);
      pending.set(id, (m) => {
        clearTimeout(timer);
        pending.delete(id);
        if (typeof m.text === 'string') resolve(m.text);
        else reject(new Error(m.error ?? 'no cluster metrics'));
      });
      send({ type: REQUEST, id });
    });
}
