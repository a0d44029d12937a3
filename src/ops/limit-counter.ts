/** One counted event for a subject: where its window stands afterwards. */
export interface LimitCount {
  readonly limit: number;
  readonly remaining: number;
  readonly exceeded: boolean;
  /** Milliseconds until the subject's window ends. */
  readonly resetMs: number;
}

/** Counts one event for a subject; `undefined` when the counter store cannot answer (fail open). */
export type LimitCounter = (subject: string) => Promise<LimitCount | undefined>;

/** Either counter shape: one event per call (LimitCounter), or `weight` of them (a key's rate). */
type Counting = (subject: string, weight: number) => Promise<LimitCount | undefined>;

/**
 * Counts in `first` (Redis, or the cluster's primary) while it answers and `reachable()` holds, else
 * in `fallback` (this server's or this process's own windows): an outage never lets an event pass
 * uncounted. Windows do not move between the two; each starts afresh where counting moves.
 */
export function counterWithFallback<C extends Counting>(first: C, fallback: C, reachable: () => boolean = () => true): C {
  const count: Counting = async (subject, weight) =>
    reachable() ? ((await first(subject, weight)) ?? fallback(subject, weight)) : fallback(subject, weight);
  // `count` passes on every argument it gets, so it has the shape of the counters it joins.
  return count as C;
}
