import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { addressRateLimited } from '../errors.js';
import type { LimitCounter } from './limit-counter.js';

const MAX_BLOCKED = 100_000;

const addressOf = (request: FastifyRequest): string => normalizeIP(request.ip || 'unknown');

/**
 * Slows down key guessing: every presented key that fails authentication is counted per client
 * address (IPv6 per /64, as one host usually owns one), in a window shared by the host's workers
 * (in the cluster's primary) or by every instance (through Redis when REDIS_URL is set). Once an
 * address reaches the limit, every request of it that needs a key gets 429 until its window ends —
 * also with a valid key, so a guess cannot tell a hit from a miss by the status. After the window
 * the address starts afresh.
 *
 * The block itself is kept in each process: checking it costs one Map size test while no address
 * is blocked, never a round trip. The failure that fills the window is announced to the other
 * processes (`announce`, or the primary tells its workers) and they call `block`; a failure counted
 * past the limit, wherever it lands, is answered 429 and blocks there too.
 */
export class AuthFailureLimiter {
  readonly #blocked = new Map<string, number>();

  constructor(
    private readonly count: LimitCounter,
    private readonly log: FastifyBaseLogger,
    private readonly announce?: (address: string, resetMs: number) => Promise<void>,
  ) {}

  check(request: FastifyRequest, reply: FastifyReply): void {
    if (this.#blocked.size === 0) return;
    const address = addressOf(request);
    const until = this.#blocked.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.#blocked.delete(address);
      return;
    }
    tooMany(reply, left);
  }

  /** Counts a failure of the request's address; throws 429 when it is past the limit. */
  async failed(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const address = addressOf(request);
    const r = await this.count(address);
    if (!r || r.remaining > 0) return;
    this.block(address, Date.now() + r.resetMs);
    if (r.exceeded) tooMany(reply, r.resetMs);
    // This failure filled the window (counted once wherever the window is kept): it answers 401 still.
    this.log.warn({ address, failures: r.limit, blockedForMs: r.resetMs }, 'too many failed authentications: client address blocked');
    await this.announce?.(address, r.resetMs);
  }

  /** Blocks `address` until `until` (epoch ms). */
  block(address: string, until: number): void {
    if (this.#blocked.size >= MAX_BLOCKED) this.#forgetExpired();
    this.#blocked.set(address, until);
  }

  #forgetExpired(): void {
    const now = Date.now();
    for (const [address, until] of this.#blocked) if (until <= now) this.#blocked.delete(address);
  }
}

function tooMany(reply: FastifyReply, ms: number): never {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  reply.header('retry-after', seconds);
  throw addressRateLimited(seconds);
}
