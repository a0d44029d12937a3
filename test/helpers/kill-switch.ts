/**
 * Kills a served process mid-stream for the crash tests. `trigger()` (once a number of writes were
 * acknowledged, or from a deadline) kills it a moment later while the writers go on: a group commit
 * answers a whole group at once, and a kill at that very answer would find nothing in flight.
 * Writers loop while `killed` is false; the deadline is cleared by `done()`.
 */
export class KillSwitch {
  #killed = false;
  #triggered = false;
  readonly #deadline: NodeJS.Timeout;

  constructor(
    private readonly kill: () => void,
    deadlineMs: number,
    private readonly delayMs = 20,
  ) {
    this.#deadline = setTimeout(() => this.trigger(), deadlineMs);
  }

  get killed(): boolean {
    return this.#killed;
  }

  trigger(): void {
    if (this.#triggered) return;
    this.#triggered = true;
    setTimeout(() => {
      this.#killed = true;
      this.kill();
    }, this.delayMs);
  }

  done(): void {
    clearTimeout(this.#deadline);
  }
}
