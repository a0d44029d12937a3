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
