import type { Store } from '../store/store.js';
import { GroupCommit } from './group-commit.js';
import type { AnyWriteCommand, WriteCommand, WriteDoor, WriteRegistry } from './unit.js';
import { WriteThread } from './write-thread.js';

export type { WriteDoor } from './unit.js';

/** Commands by name; refuses a command that is not in the registry (it could not run in a thread). */
export function commandTable(registry: WriteRegistry): Map<string, AnyWriteCommand> {
  const table = new Map<string, AnyWriteCommand>();
  for (const c of registry.commands) {
    if (table.has(c.name)) throw new Error(`two write commands are named ${c.name}`);
    table.set(c.name, c);
  }
  return table;
}

/** Runs the commands in this thread, through one group-commit queue over the store. */
export class InlineDoor implements WriteDoor {
  readonly #commits: GroupCommit;
  readonly #table: Map<string, AnyWriteCommand>;

  constructor(store: Store, registry: WriteRegistry) {
    this.#commits = new GroupCommit(store, { stampers: registry.stampers, outbox: registry.outbox });
    this.#table = commandTable(registry);
  }

  run<I, O>(command: WriteCommand<I, O>, input: I): Promise<O> {
    if (this.#table.get(command.name) !== command) return Promise.reject(new Error(`write command ${command.name} is not registered`));
    return this.runNamed(command.name, input) as Promise<O>;
  }

  /** The same, by name: how the write thread runs what crossed to it. */
  runNamed(name: string, input: unknown): Promise<unknown> {
    const command = this.#table.get(name);
    if (!command) return Promise.reject(new Error(`write command ${name} is not registered`));
    return this.#commits.run((unit) => command.run(unit, input));
  }

  close(): Promise<void> {
    return this.#commits.drained();
  }
}

export interface WriteDoorOptions {
  /**
   * Run the writes in a thread of their own where the store asks for it (a SQLite file): the
   * serving process does; a CLI command, which waits for each write anyway, does not.
   */
  readonly thread?: boolean;
}

/** Opens the write door over a store: in a write thread where the store asks for one, else inline. */
export function openWriteDoor(store: Store, registry: WriteRegistry, options: WriteDoorOptions = {}): WriteDoor {
  if (options.thread && store.writerThreadUrl !== undefined) {
    return new WriteThread(store.writerThreadUrl, registry.module, commandTable(registry));
  }
  return new InlineDoor(store, registry);
}
