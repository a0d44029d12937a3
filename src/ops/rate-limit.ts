import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { keyRateLimited } from '../errors.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { clusterLimits } from './cluster-limits.js';
import { counterWithFallback, type LimitCount, type LimitCounter } from './limit-counter.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate limits and the failed-authentication limit (the rateLimits plugin). */
    readonly accessGuard: AccessGuard;
  }
}

/** The abuse limits the wire layer applies around authentication, for every operation route. */
export interface AccessGuard {
  /** Throws 429 while the client's address is blocked after too many failed authentications. */
  beforeAuthentication(request: FastifyRequest, reply: FastifyReply): void;
  /** Counts a presented key that did not authenticate; throws 429 when the address is past its limit. */
  authenticationFailed(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Counts `weight` requests against the key's rate, sets the RateLimit-* headers, throws 429 when
   * over; undefined (nothing to wait for) when no rate is configured.
   */
  admit(request: FastifyRequest, reply: FastifyReply, keyId: string, weight: number): Promise<void> | undefined;
  /**
   * Where the limits are counted, for /health/ready: undefined without REDIS_URL (always per
   * server); with it `Shared` while Redis answers, `Local` while each server counts on its own.
   */
  scope: () => LimitScope | undefined;
}

export type LimitScope = 'Shared' | 'Local';

// @fastify/rate-limit's own counter stores (its LRU in memory, its Lua script on Redis), used through
// the plugin's public store contract (`incr`). Its hook and createRateLimit() derive the subject from
// a request and wrap each count in a chain of promises; here the subject (the key that authenticated,
// a client address) is known already, and a count costs one promise.
const require = createRequire(import.meta.url);
type StoreCtor<A> = new (continueExceeding: boolean, exponentialBackoff: boolean, arg: A, nameSpace?: string) => FastifyRateLimitStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor<number>;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor<Redis>;

/** A fixed-window counter: `max` events per subject per `windowMs`; `undefined` when its store failed. */
function counter(store: FastifyRateLimitStore, max: number, windowMs: number, onStoreError: (err: unknown) => void): LimitCounter {
  return (subject) =>
    new Promise((resolve) => {
      store.incr(
        subject,
        (err, r) => {
          if (err || !r) {
            onStoreError(err);
            resolve(undefined);
          } else {
            resolve({ limit: max, remaining: Math.max(0, max - r.current), exceeded: r.current > max, resetMs: r.ttl });
          }
        },
        windowMs,
        max,
      );
    });
}

/** Whether a command sent now can be answered (a command fails at once while disconnected). */
const redisReady = (redis: Redis) => (): boolean => redis.status === 'ready';

const localStore = (): FastifyRateLimitStore => new LocalStore(false, false, 100_000);

/**
 * A Redis connection that never holds a request up: no offline queue and no retries (a command
 * fails at once while disconnected), a short command timeout, reconnects in the background.
 * Connection changes are logged once each, not once per request.
 */
async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded here, not with this module: a start without REDIS_URL does not load the client at all.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  let up: boolean | undefined;
  redis.on('ready', () => {
    if (up !== true) log.info('rate limits: Redis connected, limits are shared across instances');
    up = true;
  });
  // A connection refused reports an error; one that the network or Redis drops may only close.
  const lost = (err?: Error): void => {
    if (up !== false) log.warn({ err }, 'rate limits: Redis unavailable, each server counts its limits on its own until it is back');
    up = false;
  };
  redis.on('error', lost);
  redis.on('close', () => lost());
  // Limits apply from the first request when Redis is there; a missing Redis delays start-up briefly only.
  await Promise.race([
    new Promise((resolve) => redis.once('ready', resolve)),
    new Promise((resolve) => setTimeout(resolve, 2_000).unref()),
  ]);
  return redis;
}

function throttled(log: FastifyBaseLogger, everyMs: number, message: string): (err: unknown) => void {
  let last = 0;
  return (err) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    log.warn({ err }, message);
  };
}

/**
 * Tells the other instances through Redis pub/sub that an address has reached the failed-authentication
 * limit, and passes on what they tell: without it another instance would let the address try one
 * more key before it counted a failure past the limit itself.
 */
function blocksThroughRedis(
  app: FastifyInstance,
  redis: Redis,
  block: (address: string, until: number) => void,
  onStoreError: (err: unknown) => void,
): (address: string, resetMs: number) => Promise<void> {
  const channel = 'ordergate:authfail:blocked';
  const self = randomUUID();
  // Subscribed on every (re)connect, so that a Redis missing at start or lost later does not end
  // the subscription; the main connection logs outages.
  const sub = redis.duplicate({ commandTimeout: undefined });
  sub.on('error', () => undefined);
  sub.on('ready', () => void sub.subscribe(channel).catch(() => undefined));
  sub.on('message', (_channel: string, text: string) => {
    try {
      const m = JSON.parse(text) as { from?: unknown; address?: unknown; resetMs?: unknown };
      if (m.from !== self && typeof m.address === 'string' && typeof m.resetMs === 'number') block(m.address, Date.now() + m.resetMs);
    } catch {
      // not ours
    }
  });
  app.addHook('onClose', async () => sub.disconnect());
  return async (address: string, resetMs: number): Promise<void> => {
    await redis.publish(channel, JSON.stringify({ from: self, address, resetMs })).catch(onStoreError);
  };
}

type PerKey = (keyId: string, weight: number) => Promise<LimitCount | undefined>;

/**
 * Per-key rate limit (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST) and the failed-authentication limit
 * per client address (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_SECONDS). Both hold per host: in a
 * cluster of WORKERS > 1 they are kept by the primary (see cluster-limits.ts); with one process, in
 * it. With REDIS_URL their windows are in Redis and shared by every instance; while Redis does not
 * answer, each server counts on its own as it would without it, and counts in Redis again once it is
 * back.
 *
 * The rate is enforced as a fixed window of `burst / rate` seconds holding `burst` requests: the
 * long-run rate is the configured one, and a client may spend its whole burst at once.
 */
async function registerRateLimits(app: FastifyInstance, config: Config): Promise<AccessGuard> {
  const redis =
    config.redisUrl && (config.rateLimitPerSecond > 0 || config.authFailureLimit > 0)
      ? await connectRedis(config.redisUrl, app.log)
      : undefined;
  if (redis)
    app.addHook('onClose', async () => {
      redis.removeAllListeners('close'); // a shutdown is not an outage
      redis.disconnect();
    });
  const onRedisError = throttled(app.log, 10_000, 'rate limits: Redis failed to count, this server counted the request on its own');
  // A worker whose primary does not answer counts on its own: no limit is ever off.
  const cluster = clusterLimits(
    throttled(app.log, 10_000, 'rate limits: the primary did not answer, this worker counted the request on its own'),
  );

  let perKey: PerKey | undefined;
  // RateLimit-Limit is the quota of the window (IETF RateLimit header fields draft); the policy names
  // that window, in whole seconds as the draft has it: the defaults give `2000;w=2`.
  let policy = '';
  if (config.rateLimitPerSecond > 0) {
    const burst = Math.max(1, config.rateLimitBurst);
    const windowMs = Math.max(1, Math.round((burst * 1000) / config.rateLimitPerSecond));
    policy = `${burst};w=${Math.ceil(windowMs / 1000)}`;
    const leased = cluster?.leased('rate', burst, windowMs, config.workers);
    const own = batched(counter(localStore(), burst, windowMs, onRedisError));
    const local: PerKey = leased ? counterWithFallback<PerKey>((keyId, weight) => leased.count(keyId, weight), own) : own;
    perKey = redis
      ? counterWithFallback(
          batched(counter(new RedisStore(false, false, redis, 'ordergate:rate:'), burst, windowMs, onRedisError)),
          local,
          redisReady(redis),
        )
      : local;
  }
  let failures: AuthFailureLimiter | undefined;
  if (config.authFailureLimit > 0) {
    const max = config.authFailureLimit;
    const windowMs = config.authFailureWindowSeconds * 1000;
    const block = (address: string, until: number): void => failures?.block(address, until);
    const own = counter(localStore(), max, windowMs, onRedisError);
    const primary = cluster?.counter('authfail', max, windowMs, block);
    const local = primary ? counterWithFallback(primary, own) : own;
    failures = redis
      ? new AuthFailureLimiter(
          counterWithFallback(
            counter(new RedisStore(false, false, redis, 'ordergate:authfail:'), max, windowMs, onRedisError),
            local,
            redisReady(redis),
          ),
          app.log,
          blocksThroughRedis(app, redis, block, onRedisError),
        )
      : new AuthFailureLimiter(local, app.log);
  }

  return {
    beforeAuthentication: (request, reply) => failures?.check(request, reply),
    authenticationFailed: async (request, reply) => failures?.failed(request, reply),
    admit(_request, reply, keyId, weight) {
      if (!perKey) return undefined;
      return perKey(keyId, weight).then((r) => {
        if (!r) return;
        const reset = Math.ceil(r.resetMs / 1000);
        reply
          .header('ratelimit-limit', r.limit)
          .header('ratelimit-remaining', r.remaining)
          .header('ratelimit-reset', reset)
          .header('ratelimit-policy', policy);
        if (!r.exceeded) return;
        reply.header('retry-after', reset);
        throw keyRateLimited(reset);
      });
    },
    scope: () => (redis ? (redis.status === 'ready' ? 'Shared' : 'Local') : undefined),
  };
}

/** A batch counts once per item, up to the whole burst (so one big batch can still pass alone). */
function batched(count: LimitCounter): PerKey {
  return async (keyId, weight) => {
    let r = await count(keyId);
    for (let i = 1; r && i < Math.min(weight, r.limit); i++) r = await count(keyId);
    return r;
  };
}

/** The rate limits and the failed-authentication limit, as `app.accessGuard` for the operation routes. */
export const rateLimits = fp(
  async (app, opts: { readonly config: Config }) => {
    app.decorate('accessGuard', await registerRateLimits(app, opts.config));
  },
  { name: 'rate-limits' },
);
