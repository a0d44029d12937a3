import { Counter, Gauge, type Registry } from 'prom-client';
import type { RoutedOutcome, StoreReplica } from '../store/store.js';

const OUTCOMES: readonly RoutedOutcome[] = ['replica', 'down', 'behind', 'failed'];

/**
 * Read-replica metrics, when the store has one: the reads that could go to it by outcome (replica:
 * answered there; down, behind, failed: answered by the primary because the replica was left
 * alone after a failure, had not reached the request's X-Min-Watermark, or failed on this read),
 * and whether reads currently try it.
 */
export function registerReplicaMetrics(registry: Registry, replica: StoreReplica): void {
  const counted: Record<RoutedOutcome, number> = { replica: 0, down: 0, behind: 0, failed: 0 };
  new Counter({
    name: 'ordergate_replica_reads_total',
    help: 'Reads the read replica may answer, by outcome (replica; else answered by the primary: down, behind, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      for (const outcome of OUTCOMES) {
        const now = replica.counts[outcome];
        // Touched even at 0, so that every outcome shows from the first scrape.
        this.inc({ outcome }, now - counted[outcome]);
        counted[outcome] = now;
      }
    },
  });
  new Gauge({
    name: 'ordergate_replica_available',
    help: 'Whether reads try the read replica (0: left alone after a failure, reads go to the primary)',
    registers: [registry],
    aggregator: 'min',
    collect() {
      this.set(replica.available ? 1 : 0);
    },
  });
}
