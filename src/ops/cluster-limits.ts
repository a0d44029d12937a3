import { answerWorkers, askPrimary, onPrimaryNotice, tellWorkers } from './cluster-channel.js';
import type { LimitCount, LimitCounter } from './limit-counter.js';

// With WORKERS > 1 and no REDIS_URL the limits' windows live in the primary, so that they hold per
// host: a worker asks it over the cluster IPC channel. A round trip costs the two processes 11–22 µs
// of CPU alone, and under load a WORKERS=2 search went from about 65 to 130–160 µs of server CPU
// per request with one round trip each (bench/cluster-limits.ts, docs/reliability.md). Hence:
//
// - a failed authentication asks once per failure (failures are rare and cost a key lookup anyway);
// - the rate limit leases: a worker takes a slice of the key's window (a sixteenth of the burst per
//   worker, at least 1, or what a batch needs) and spends it locally, asking again when it is used
//   up, and refuses without asking while the primary cannot have enough left. The host never admits
//   more than the burst per window; it may refuse while other workers hold less than a slice each.

const TOPIC = 'ordergate:limits';
const TIMEOUT_MS = 1000;
const CAPACITY = 100_000;

/** A worker's question: take up to `want` events of `subject`'s window in the counter `name`, none if fewer than `least` are left. */
interface Take {
  readonly name: string;
  readonly subject: string;
  readonly want: number;
  readonly least: number;
  readonly max: number;
  readonly windowMs: number;
  /** Tell every worker when this take fills the window (the failed-authentication block). */
  readonly announce?: boolean;
}

/** How many were taken, how many the window has left, when it ends (epoch ms; one host, one clock). */
interface Taken {
  readonly granted: number;
  readonly left: number;
  readonly endsAt: number;
}

/** The primary's notice that a subject's window is full. */
export interface WindowFull {
  readonly name: string;
  readonly subject: string;
  readonly endsAt: number;
}

/**
 * Fixed windows of one length, each starting at its subject's first event. Map order is the order
 * the windows started, hence the order they end: expired ones are dropped from the front, and when
 * `capacity` subjects have open windows the one ending first goes.
 */
export class FixedWindows {
  readonly #windows = new Map<string, { used: number; endsAt: number }>();

  constructor(private readonly capacity = CAPACITY) {}

  get size(): number {
    return this.#windows.size;
  }

  take(subject: string, want: number, least: number, max: number, windowMs: number, now = Date.now()): Taken {
    let w = this.#windows.get(subject);
    if (!w || w.endsAt <= now) {
      if (w) this.#windows.delete(subject);
      for (const [s, open] of this.#windows) {
        if (open.endsAt > now && this.#windows.size < this.capacity) break;
        this.#windows.delete(s);
      }
      w = { used: 0, endsAt: now + windowMs };
      this.#windows.set(subject, w);
    }
    const left = max - w.used;
    const granted = left >= least ? Math.min(want, left) : 0;
    w.used += granted;
    return { granted, left: max - w.used, endsAt: w.endsAt };
  }
}

/** In the primary (WORKERS > 1): holds the windows the workers' limits count in. */
export function serveClusterLimits(): void {
  const counters = new Map<string, FixedWindows>();
  answerWorkers<Take, Taken>(TOPIC, (q) => {
    let windows = counters.get(q.name);
    if (!windows) counters.set(q.name, (windows = new FixedWindows()));
    const taken = windows.take(q.subject, q.want, q.least, q.max, q.windowMs);
    // Told before the asking worker hears its answer: the next request lands on a worker that knows.
    if (q.announce && taken.granted > 0 && taken.left === 0)
      tellWorkers(TOPIC, { name: q.name, subject: q.subject, endsAt: taken.endsAt } satisfies WindowFull);
    return taken;
  });
}

type Ask = (q: Take) => Promise<Taken>;

const askOrFail =
  (ask: Ask, onError: (err: unknown) => void) =>
  (q: Take): Promise<Taken | undefined> =>
    ask(q).catch((err: unknown) => {
      onError(err);
      return undefined;
    });

/** The counters of a cluster worker, or undefined outside a cluster. */
export interface ClusterLimits {
  /** One event per call, counted in the primary (`max` per `windowMs`); `onFull` hears of windows filled on any worker. */
  counter(name: string, max: number, windowMs: number, onFull?: (subject: string, endsAt: number) => void): LimitCounter;
  /** Leases slices of each subject's window (`burst` per `windowMs`) among `workers` workers. */
  leased(name: string, burst: number, windowMs: number, workers: number): LeasedCounter;
}

export function clusterLimits(onError: (err: unknown) => void): ClusterLimits | undefined {
  const ask = askPrimary<Take, Taken>(TOPIC, TIMEOUT_MS);
  if (!ask) return undefined;
  const take = askOrFail(ask, onError);
  const listeners = new Map<string, (subject: string, endsAt: number) => void>();
  onPrimaryNotice<WindowFull>(TOPIC, (n) => listeners.get(n.name)?.(n.subject, n.endsAt));
  return {
    counter(name, max, windowMs, onFull) {
      if (onFull) listeners.set(name, onFull);
      return async (subject) => {
        const t = await take({ name, subject, want: 1, least: 1, max, windowMs, announce: onFull !== undefined });
        if (!t) return undefined;
        return { limit: max, remaining: t.left, exceeded: t.granted === 0, resetMs: Math.max(0, t.endsAt - Date.now()) };
      };
    },
    leased: (name, burst, windowMs, workers) =>
      new LeasedCounter(
        (subject, want, least) => take({ name, subject, want, least, max: burst, windowMs }),
        burst,
        Math.max(1, Math.floor(burst / (16 * workers))),
      ),
  };
}

interface Lease {
  /** Events this worker may still admit in the window without asking. */
  tokens: number;
  /** What the primary had left after its last answer (at most that now: only the workers take). */
  left: number;
  endsAt: number;
}

/** A worker's share of the primary's windows, taken `slice` events at a time (or what one request needs, if more). */
export class LeasedCounter {
  readonly #leases = new Map<string, Lease>();
  readonly #asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly take: (subject: string, want: number, least: number) => Promise<Taken | undefined>,
    private readonly max: number,
    readonly slice: number,
  ) {}

  /** Counts `weight` events (up to the whole burst); `undefined` when the primary did not answer (the caller then counts on its own). */
  async count(subject: string, weight: number): Promise<LimitCount | undefined> {
    const need = Math.min(Math.max(1, weight), this.max);
    // A window may end while its answer is on the way (windows of a few ms under load): what was just
    // granted is still spent, or the worker could ask forever.
    for (let answered = false; ; answered = true) {
      const now = Date.now();
      let lease = this.#leases.get(subject);
      if (lease && lease.endsAt <= now && !answered) {
        this.#leases.delete(subject);
        lease = undefined;
      }
      if (lease && lease.tokens >= need) {
        lease.tokens -= need;
        return this.#result(lease, now, false);
      }
      // Refused without asking once the primary cannot have enough left.
      if (lease && lease.left + lease.tokens < need) return this.#result(lease, now, true);
      // One question per subject at a time; requests arriving meanwhile wait for its answer.
      const asking = this.#asking.get(subject) ?? this.#ask(subject, need - (lease?.tokens ?? 0));
      if (!(await asking)) return undefined;
    }
  }

  /** Asks for a slice, or for `least` if more; nothing is granted when fewer than `least` are left. */
  #ask(subject: string, least: number): Promise<boolean> {
    const asking = this.take(subject, Math.max(least, this.slice), least).then((t) => {
      this.#asking.delete(subject);
      if (!t) return false;
      const lease = this.#leases.get(subject);
      if (lease && lease.endsAt === t.endsAt) {
        lease.tokens += t.granted;
        lease.left = t.left;
      } else {
        if (this.#leases.size >= 10_000) this.#forgetExpired();
        this.#leases.set(subject, { tokens: t.granted, left: t.left, endsAt: t.endsAt });
      }
      return true;
    });
    this.#asking.set(subject, asking);
    return asking;
  }

  #result(lease: Lease, now: number, exceeded: boolean): LimitCount {
    return { limit: this.max, remaining: lease.left + lease.tokens, exceeded, resetMs: Math.max(0, lease.endsAt - now) };
  }

  #forgetExpired(): void {
    const now = Date.now();
    for (const [subject, lease] of this.#leases) if (lease.endsAt <= now) this.#leases.delete(subject);
  }
}
