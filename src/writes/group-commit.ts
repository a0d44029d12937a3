import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../store/database.js';
import { isPreparedStatementLost, isStoreUnavailable, isTransactionConflict } from '../store/store-errors.js';
import { nextStampAndEvents } from '../store/sync-clock.js';
import type { Emission } from './event-types.js';
import type { DbHandle, Store } from '../store/store.js';
import { RetryWork, type Outbox, type StampedKind, type Stamper, type Unit } from './unit.js';

/** One unit of work: what a write command does in its transaction. */
export type Work<T> = (unit: Unit) => Promise<T>;

export interface GroupCommitOptions {
  /** Most units of work in one transaction. */
  readonly maxBatch?: number;
  /** How each kind of stamped row is stamped. */
  readonly stampers: Readonly<Record<StampedKind, Stamper>>;
  /** Where the transaction's events go, after the stamp. */
  readonly outbox: Outbox;
}

interface Pending {
  readonly work: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What the units of one transaction left to do once the stamp is taken. */
interface Stamping {
  readonly touched: Map<StampedKind, Set<string>>;
  readonly onStamp: Array<(stamp: number) => Promise<void>>;
  readonly events: Emission[];
}

const RETRIES = 3;
// Built once: every unit runs these, and they take no parameters.
const SAVEPOINT = CompiledQuery.raw('savepoint og_unit');
const RELEASE = CompiledQuery.raw('release savepoint og_unit');
const ROLLBACK = CompiledQuery.raw('rollback to savepoint og_unit');
const MIN_GATHER_MS = 1;
const MAX_GATHER_MS = 5;
/** Rolls back a transaction run without savepoints when one of its units failed. */
class UnitFailed extends Error {
  constructor(
    readonly pending: Pending,
    readonly attempt: number,
    readonly retry: boolean,
  ) {
    super('a unit failed');
  }
}
/** Transactions that failed through no fault of their units: running them again is safe, and likely to succeed. */
const runsAgain = (err: unknown): boolean => isTransactionConflict(err) || isPreparedStatementLost(err);
/** Errors after which the transaction cannot go on: they fail the batch, not just one unit. */
const isFatal = (err: unknown): boolean => runsAgain(err) || isStoreUnavailable(err);

/**
 * Group commit: units of work that arrive while a transaction is being written wait and are then
 * committed together in the next one. A failing unit is rolled back alone and leaves the others
 * untouched: the batch then runs again with each unit inside its own savepoint. A durable commit
 * costs a disk flush whatever its size, so this raises throughput without weakening durability:
 * every promise settles only after its transaction has committed (or failed).
 *
 * Every transaction ends the same way: once all its units have written, it takes one stamp from
 * the sync clock (store/sync-clock.ts: last, in that lock order) and stamps the rows they touched.
 * A deadlock or serialization failure (PostgreSQL) runs each unit of the batch again alone. A
 * transaction whose named statements a pooler lost runs again as it was: the store has stopped
 * naming them (store/postgres/postgres-store.ts).
 */
export class GroupCommit {
  readonly #queue: Pending[] = [];
  readonly #maxBatch: number;
  readonly #concurrency: number;
  readonly #idle = new Set<() => void>();
  #active = 0;
  #scheduled = false;
  #gather: { size: number; until: number } | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Moving average of a transaction's duration, in ms. */
  #commitMs = 0;

  constructor(
    private readonly store: Store,
    private readonly options: GroupCommitOptions,
  ) {
    this.#maxBatch = options.maxBatch ?? 128;
    this.#concurrency = store.writeConcurrency;
  }

  /** Runs work in the next batch transaction; resolves once that transaction has committed. */
  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Resolves once every unit queued so far has settled. */
  drained(): Promise<void> {
    if (this.#active === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  #schedule(): void {
    if (this.#active === 0 && this.#queue.length === 0) {
      for (const done of this.#idle) done();
      this.#idle.clear();
    }
    if (this.#scheduled || this.#active >= this.#concurrency || this.#queue.length === 0) return;
    const g = this.#gather;
    if (g && this.#queue.length < g.size && performance.now() < g.until) {
      this.#timer ??= setTimeout(
        () => {
          this.#timer = undefined;
          this.#gather = undefined;
          this.#schedule();
        },
        Math.ceil(g.until - performance.now()),
      );
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#gather = undefined;
    this.#scheduled = true;
    // setImmediate lets the work that arrived in the same turn of the event loop join the batch.
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#active < this.#concurrency && this.#queue.length > 0) {
        const batch = this.#queue.splice(0, this.#maxBatch);
        const started = performance.now();
        this.#active++;
        void this.#commit(batch).finally(() => {
          this.#active--;
          this.#learn(batch.length, performance.now() - started);
          this.#schedule();
        });
      }
    });
  }

  /**
   * When commits are slow (a busy disk), the callers just answered are likely to send their next
   * work at once: the next transaction waits a little for them (at most half a commit), so that
   * one flush carries them all instead of alternating half-full transactions.
   */
  #learn(size: number, ms: number): void {
    this.#commitMs = this.#commitMs === 0 ? ms : 0.8 * this.#commitMs + 0.2 * ms;
    if (this.#commitMs < MIN_GATHER_MS * 2) return;
    const wait = Math.min(this.#commitMs / 2, MAX_GATHER_MS);
    this.#gather = { size: Math.min(this.#maxBatch, this.#queue.length + size), until: performance.now() + wait };
  }

  async #commit(batch: Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.#transaction(batch).catch((err: unknown) => {
        if (!isPreparedStatementLost(err)) throw err;
        return this.#transaction(batch);
      });
    } catch (err) {
      if (!isTransactionConflict(err)) return batch.forEach((p) => p.reject(err));
      // A deadlock with another process: run each unit alone, so that none waits on its neighbours.
      outcomes = [];
      for (const p of batch) outcomes.push(await this.#alone(p));
    }
    outcomes.forEach((o, i) => (o.ok ? batch[i]!.resolve(o.value) : batch[i]!.reject(o.error)));
  }

  async #alone(p: Pending): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      // A pause first: the transaction that won the conflict is about to take what this one
      // released; starting again at once would often take it first and deadlock once more.
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      try {
        return (await this.#transaction([p]))[0]!;
      } catch (err) {
        if (!runsAgain(err) || attempt >= RETRIES) return { ok: false, error: err };
      }
    }
  }

  /**
   * Most batches have no failing unit: they run first without savepoints (two statements fewer per
   * unit, each a round trip on PostgreSQL). A unit that fails there rolls the whole transaction
   * back, and the batch runs again with a savepoint per unit, so that the failure stays its own.
   */
  async #transaction(batch: Pending[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    // The unit that failed goes on where it was: with its next attempt if it asked to run again (RetryWork).
    let resume: UnitFailed | undefined;
    try {
      for (const savepoints of [false, true]) {
        const stamping: Stamping = { touched: new Map(), onStamp: [], events: [] };
        outcomes.length = 0;
        try {
          await this.store.writeTransaction(async (trx) => {
            for (const p of batch) {
              const first = resume?.pending === p ? resume.attempt + (resume.retry ? 1 : 0) : 1;
              outcomes.push(await this.#unit(trx, p, stamping, savepoints, first));
            }
            await this.#stamp(trx, stamping);
          });
          return outcomes;
        } catch (err) {
          if (!(err instanceof UnitFailed)) throw err;
          resume = err;
        }
      }
      throw new Error('a unit failed outside its savepoint');
    } catch (err) {
      if (runsAgain(err)) throw err;
      // Nothing was committed: units that succeeded fail with the transaction; failed ones keep their error.
      return batch.map((_, i) => {
        const o = outcomes[i];
        return o && !o.ok ? o : { ok: false, error: err };
      });
    }
  }

  /**
   * One stamp for the whole transaction, taken after every unit has written (the lock order), with
   * the events' sequence numbers; then the rows are stamped, and the events written last. What the
   * events hold is read before the stamp: from the clock to the commit other writers wait.
   */
  async #stamp(trx: DbHandle<Transaction<Database>>, s: Stamping): Promise<void> {
    if (s.touched.size === 0 && s.onStamp.length === 0 && s.events.length === 0) return;
    const writeEvents = s.events.length > 0 ? await this.options.outbox.prepare(trx, s.events) : undefined;
    const { stamp, firstEvent } = await nextStampAndEvents(trx, s.events.length);
    for (const [kind, ids] of s.touched) await this.options.stampers[kind](trx, [...ids], stamp);
    for (const fn of s.onStamp) await fn(stamp);
    if (writeEvents) await writeEvents(stamp, firstEvent);
  }

  async #unit(trx: DbHandle<Transaction<Database>>, p: Pending, stamping: Stamping, savepoints: boolean, first: number): Promise<Outcome> {
    for (let attempt = first; ; attempt++) {
      const touched: Array<[StampedKind, string]> = [];
      const onStamp: Array<(stamp: number) => Promise<void>> = [];
      const events: Emission[] = [];
      const unit: Unit = {
        db: trx,
        attempt,
        touch: (kind, id) => void touched.push([kind, id]),
        onStamp: (fn) => void onStamp.push(fn),
        emit: (e) => void events.push(e),
      };
      if (savepoints) await trx.executeQuery(SAVEPOINT);
      try {
        const value = await p.work(unit);
        if (savepoints) await trx.executeQuery(RELEASE);
        for (const [kind, id] of touched) {
          let ids = stamping.touched.get(kind);
          if (!ids) stamping.touched.set(kind, (ids = new Set()));
          ids.add(id);
        }
        stamping.onStamp.push(...onStamp);
        stamping.events.push(...events);
        return { ok: true, value };
      } catch (err) {
        if (isFatal(err)) throw err;
        if (!savepoints) throw new UnitFailed(p, attempt, err instanceof RetryWork && attempt < RETRIES);
        await trx.executeQuery(ROLLBACK);
        await trx.executeQuery(RELEASE);
        if (!(err instanceof RetryWork) || attempt >= RETRIES) return { ok: false, error: err };
      }
    }
  }
}
