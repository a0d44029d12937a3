import { setTimeout as sleep } from 'node:timers/promises';
import type { WriteWatch } from './write-in-flight.js';

/**
 * Kills a served process mid-write for the crash tests. `trigger()` (once a number of writes were
 * acknowledged, or from the hang guard's deadline) kills it as soon as `watch` sees a write
 * transaction open in the store, while the writers go on: a group commit answers a whole group at
 * once, and a kill at that very answer would find nothing in flight. When no write shows within
 * `lookMs` it kills anyway and `midWrite` stays false, which the test then fails on.
 * Writers loop while `killed` is false; the deadline is cleared by `done()`.
 */
export class KillSwitch {
  #killed = false;
  #triggered = false;
  #midWrite = false;
  #finished: Promise<void> = Promise.resolve();
  readonly #deadline: NodeJS.Timeout;

  constructor(
    private readonly kill: () => void,
    private readonly watch: WriteWatch,
    deadlineMs: number,
    private readonly lookMs = 10_000,
  ) {
    this.#deadline = setTimeout(() => this.trigger(), deadlineMs);
  }

  get killed(): boolean {
    return this.#killed;
  }

  /** Whether the kill came while a write transaction was open. */
  get midWrite(): boolean {
    return this.#midWrite;
  }

  trigger(): void {
    if (this.#triggered) return;
    this.#triggered = true;
    this.#finished = (async () => {
      const until = Date.now() + this.lookMs;
      while (Date.now() < until && !(this.#midWrite = await this.watch.writing())) await sleep(1);
      this.#killed = true;
      this.kill();
    })();
  }

  /** Clears the deadline; resolves once a triggered kill has been sent. */
  async done(): Promise<void> {
    clearTimeout(this.#deadline);
    await this.#finished;
  }
}
