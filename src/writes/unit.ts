import type { Transaction } from 'kysely';
import type { Emission } from './event-types.js';
import type { Database } from '../store/database.js';
import type { DbHandle } from '../store/store.js';

/** Kinds of rows that carry a sync stamp: a unit names the rows it changed, the door stamps them. */
export type StampedKind = 'customer' | 'order';

/** What one unit of work gets from the write door: its transaction and what it may tell the door. */
export interface Unit {
  /**
   * The transaction the unit writes in (inside a savepoint of its own), as the handle every
   * repository function takes: Kysely's builder and what the store's SQL can do (locks, statements
   * written once).
   */
  readonly db: DbHandle<Transaction<Database>>;
  /** 1 on the first run; a unit that threw RetryWork runs again with the next number. */
  readonly attempt: number;
  /** The row changed: its modification stamp moves when the transaction takes its stamp, last. */
  touch(kind: StampedKind, id: string): void;
  /**
   * Runs with the transaction's stamp, after every unit of it has written: for set-based work
   * that must see the stamp (rows already locked by the unit).
   */
  onStamp(fn: (stamp: number) => Promise<void>): void;
  /** The change is an event: the door writes it to the outbox in this transaction, after the stamp. */
  emit(emission: Emission): void;
}

/** Thrown by a unit of work that lost a race: it is rolled back to its savepoint and run again. */
export class RetryWork extends Error {
  constructor(reason = 'retry') {
    super(reason);
    this.name = 'RetryWork';
  }
}

/**
 * A kind of write: a name (it crosses to the write thread by name) and what it does in a unit.
 * Input and output are plain data (structured-cloneable), so that it can run in either thread.
 */
export interface WriteCommand<I, O> {
  readonly name: string;
  readonly run: (unit: Unit, input: I) => Promise<O>;
}

export const defineWrite = <I, O>(name: string, run: (unit: Unit, input: I) => Promise<O>): WriteCommand<I, O> => ({ name, run });

/** Moves the stamp of rows of one kind; given by the module that owns those rows. */
export type Stamper = (db: DbHandle<Transaction<Database>>, ids: readonly string[], stamp: number) => Promise<void>;

/**
 * Writes the events of a transaction (src/events/event.outbox.ts). `prepare` reads what they will hold
 * once every unit has written, before the stamp, so that the reads do not hold up the writers
 * queued for the clock; the function it answers stores them, last, with the stamp as their time
 * and `LastModified`, numbered from `firstEvent` (taken with the stamp, in commit order).
 */
export interface Outbox {
  prepare(
    db: DbHandle<Transaction<Database>>,
    emissions: readonly Emission[],
  ): Promise<(stamp: number, firstEvent: number) => Promise<void>>;
}

/** A command of any input and output type, as lists hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a command's input is a parameter: a list of commands of different inputs needs any
export type AnyWriteCommand = WriteCommand<any, any>;

/** Every write of the service and how stamped rows are stamped: one list, built in src/write-registry.ts. */
export interface WriteRegistry {
  /** The URL of the module that exports this registry as `writeRegistry`: a write thread loads it too. */
  readonly module: string;
  readonly commands: readonly AnyWriteCommand[];
  readonly stampers: Readonly<Record<StampedKind, Stamper>>;
  readonly outbox: Outbox;
}

/**
 * The one door for every write of the service: a command and its input in, its output out once the
 * transaction that carried it has committed. Behind it, each unit of work runs in a group-commit
 * transaction that stamps the rows it touched last, and retries conflicts the same way for all
 * (src/writes/write-door.ts opens one).
 */
export interface WriteDoor {
  run<I, O>(command: WriteCommand<I, O>, input: I): Promise<O>;
  /** Lets the writes in flight finish, then releases what the door holds (its thread). */
  close(): Promise<void>;
}
