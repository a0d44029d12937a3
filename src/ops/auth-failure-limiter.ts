import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { addressRateLimited } from '../errors.js';
import type { LimitCounter } from './limit-counter.js';

const MAX_BLOCKED = 100_000;

const addressOf = (request: FastifyRequest): string => normalizeIP(request.ip || 'unknown');

/**
 * Slows down key guessing: every presented key that fails authentication is counted per client
 * address (IPv6 per /64, as one host usually owns one), in a window shared through Redis when
 * REDIS_URL is set. Once an address reaches the limit, every request of it that needs a key gets
 * 429 until its window ends — also with a valid key, so a guess cannot tell a hit from a miss by
 * the status. After the window the address starts afresh.
 *
 * The block itself is kept in this process: checking it costs one Map size test while no address
 * is blocked, never a store round trip. Other instances block the address at its next failure
 * there, since the count they read is the shared one.
 */
export class AuthFailureLimiter {
  readonly #blocked = new Map<string, number>();

  constructor(
    private readonly count: LimitCounter,
    private readonly log: FastifyBaseLogger,
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
    const seconds = Math.ceil(left / 1000);
    reply.header('retry-after', seconds);
    throw addressRateLimited(seconds);
  }

  async failed(request: FastifyRequest): Promise<void> {
    const address = addressOf(request);
    const r = await this.count(address);
    if (!r || r.remaining > 0) return;
    if (this.#blocked.size >= MAX_BLOCKED) this.#forgetExpired();
    if (!this.#blocked.has(address)) {
      this.log.warn({ address, failures: r.limit, blockedForMs: r.resetMs }, 'too many failed authentications: client address blocked');
    }
    this.#blocked.set(address, Date.now() + r.resetMs);
  }

  #forgetExpired(): void {
    const now = Date.now();
    for (const [address, until] of this.#blocked) if (until <= now) this.#blocked.delete(address);
  }
}
