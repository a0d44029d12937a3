import { readFileSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import { availableParallelism } from 'node:os';
import { createSecureContext } from 'node:tls';
import { DEFAULT_RETRY_SCHEDULE_TEXT, parseRetrySchedule, parseSecretKey, WebhookSettingError } from './webhook-settings/index.js';

/** Everything the service reads from its environment, validated once at boot. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  /** A streaming replica of the PostgreSQL store for the feeds and searches (docs/replicas.md); unset: all reads on DATABASE_URL. */
  readonly databaseReadUrl: string | undefined;
  /**
   * A session of its own on the database of a PostgreSQL databaseUrl that goes through a pooler in
   * transaction mode (PgBouncer): backup, restore and creating a missing database use it. Unset:
   * databaseUrl (see sessionDatabaseUrl).
   */
  readonly databaseDirectUrl: string | undefined;
  readonly databasePoolSize: number;
  /**
   * PostgreSQL: the hot paths' statements as named prepared statements (DATABASE_PREPARED_STATEMENTS).
   * Default: on, but off when databaseDirectUrl is set, which says databaseUrl is a pooler in
   * transaction mode (PgBouncer before 1.21 does not keep prepared statements there). On, the store
   * still turns them off by itself once such a pooler loses one (store/postgres/postgres-store.ts).
   */
  readonly databasePreparedStatements: boolean;
  readonly basePath: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly workers: number;
  readonly jsonCasing: 'pascal' | 'camel';
  readonly dateFormat: 'wcf' | 'iso8601';
  readonly bootstrapKey: string | undefined;
  readonly trustProxy: boolean | string | number;
  readonly tls: { readonly cert: Buffer; readonly key: Buffer } | undefined;
  readonly rateLimitPerSecond: number;
  readonly rateLimitBurst: number;
  readonly redisUrl: string | undefined;
  /** Failed authentications per client address and window before the address gets 429 (0: off). */
  readonly authFailureLimit: number;
  readonly authFailureWindowSeconds: number;
  readonly allowApiKeyInQuery: boolean;
  /** Days events are kept for the pull feed and replays. */
  readonly eventRetentionDays: number;
  /** The ISO 4217 currency of an order created without one (DEFAULT_CURRENCY). */
  readonly defaultCurrency: string;
  readonly webhook: {
    readonly timeoutMs: number;
    /** Seconds between attempts; after the last one a delivery is Dead. */
    readonly retrySchedule: readonly number[];
    readonly allowPrivate: boolean;
    /** Seals webhook secrets at rest (32 bytes); unset: stored as they are. */
    readonly secretKey: Buffer | undefined;
    /** How often an idle dispatcher looks for work. */
    readonly pollMs: number;
  };
}

/** A bad environment value; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function text(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T, aliases: Record<string, T> = {}): T {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  const hit = (allowed as readonly string[]).includes(raw) ? (raw as T) : aliases[raw];
  if (hit === undefined) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got '${raw}'`);
  return hit;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got '${raw}'`);
}

function basePath(env: Env): string {
  const raw = text(env, 'BASE_PATH');
  if (raw === undefined || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) {
    throw new ConfigError('BASE_PATH', `expected a path such as /api/v1, got '${raw}'`);
  }
  return raw.replace(/\/$/, '');
}

function databaseUrl(env: Env): string {
  const raw = text(env, 'DATABASE_URL') ?? 'sqlite:./data/ordergate.sqlite';
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError('DATABASE_URL', `expected sqlite:<file> or postgres://…, got '${raw.replace(/:[^:@/]*@/, ':***@')}'`);
}

/** DATABASE_READ_URL: a PostgreSQL URL, and only next to a PostgreSQL DATABASE_URL (a SQLite file has no replica). */
function databaseReadUrl(env: Env, primary: string): string | undefined {
  const raw = text(env, 'DATABASE_READ_URL');
  if (raw === undefined) return undefined;
  if (!/^postgres(ql)?:\/\/.+/.test(raw)) {
    throw new ConfigError('DATABASE_READ_URL', `expected postgres://…, got '${raw.replace(/:[^:@/]*@/, ':***@')}'`);
  }
  if (primary.startsWith('sqlite:')) throw new ConfigError('DATABASE_READ_URL', 'a read replica needs a PostgreSQL DATABASE_URL');
  return raw;
}

function databaseDirectUrl(env: Env, databaseUrl: string): string | undefined {
  const raw = text(env, 'DATABASE_DIRECT_URL');
  if (raw === undefined) return undefined;
  const shown = raw.replace(/:[^:@/]*@/, ':***@');
  if (!/^postgres(ql)?:\/\/.+/.test(raw)) throw new ConfigError('DATABASE_DIRECT_URL', `expected postgres://…, got '${shown}'`);
  if (!/^postgres(ql)?:/.test(databaseUrl))
    throw new ConfigError('DATABASE_DIRECT_URL', 'only for a PostgreSQL DATABASE_URL (a direct connection beside a pooler)');
  return raw;
}

/** The URL for what needs a database session of its own (pg_dump, pg_restore, CREATE DATABASE): DATABASE_DIRECT_URL, else DATABASE_URL. */
export const sessionDatabaseUrl = (config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl'>): string =>
  config.databaseDirectUrl ?? config.databaseUrl;

function trustProxy(env: Env): boolean | string | number {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.every(trustedProxyEntry)) return parts.join(', ');
  throw new ConfigError('TRUST_PROXY', `expected true, false, a hop count or addresses/CIDRs, got '${raw}'`);
}

/** One entry of a TRUST_PROXY list as proxy-addr reads it: a name, an address, address/prefix or address/netmask. */
function trustedProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', range, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

function tls(env: Env): Config['tls'] {
  const cert = text(env, 'TLS_CERT');
  const key = text(env, 'TLS_KEY');
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined) throw new ConfigError('TLS_CERT', 'TLS_KEY is set, TLS_CERT must be set too');
  if (key === undefined) throw new ConfigError('TLS_KEY', 'TLS_CERT is set, TLS_KEY must be set too');
  const read = (name: string, file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch {
      throw new ConfigError(name, `cannot read file '${file}'`);
    }
  };
  const pair = { cert: read('TLS_CERT', cert), key: read('TLS_KEY', key) };
  try {
    createSecureContext(pair);
  } catch (err) {
    throw new ConfigError(
      'TLS_CERT',
      `TLS_CERT and TLS_KEY are not a usable PEM certificate and key (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return pair;
}

// A host name, an IPv4 address or an IPv6 address (optionally in brackets).
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?)$/;

function host(env: Env): string {
  const raw = text(env, 'HOST');
  if (raw === undefined) return '127.0.0.1';
  if (!HOST.test(raw)) throw new ConfigError('HOST', `expected a host name or an IP address, got '${raw}'`);
  return raw.replace(/^\[(.*)\]$/, '$1');
}

function redisUrl(env: Env): string | undefined {
  const raw = text(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  if (!/^rediss?:\/\/[^\s]+$/.test(raw))
    throw new ConfigError('REDIS_URL', `expected redis://… or rediss://…, got '${raw.replace(/:[^:@/]*@/, ':***@')}'`);
  return raw;
}

function bootstrapKey(env: Env): string | undefined {
  const raw = text(env, 'ORDERGATE_BOOTSTRAP_KEY');
  if (raw === undefined) return undefined;
  if (!/^[\x21-\x7e]{32,200}$/.test(raw)) {
    throw new ConfigError('ORDERGATE_BOOTSTRAP_KEY', 'must be 32 to 200 printable characters without spaces');
  }
  return raw;
}

/** Three letters here; whether ISO 4217 lists them the orders module checks as it starts (config imports no resource module). */
function defaultCurrency(env: Env): string {
  const raw = text(env, 'DEFAULT_CURRENCY')?.toUpperCase() ?? 'EUR';
  if (!/^[A-Z]{3}$/.test(raw)) throw new ConfigError('DEFAULT_CURRENCY', `expected an ISO 4217 currency code such as EUR, got '${raw}'`);
  return raw;
}

/** The WEBHOOK_* settings; their parsers' errors become ConfigErrors naming the variable. */
function webhook(env: Env): Config['webhook'] {
  try {
    const key = text(env, 'WEBHOOK_SECRET_KEY');
    return {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 50_000),
      retrySchedule: parseRetrySchedule(text(env, 'WEBHOOK_RETRY_SCHEDULE') ?? DEFAULT_RETRY_SCHEDULE_TEXT),
      allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      secretKey: key === undefined ? undefined : parseSecretKey(key),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 60_000),
    };
  } catch (err) {
    if (err instanceof WebhookSettingError) throw new ConfigError(err.variable, err.detail);
    throw err;
  }
}

/** What `ordergate serve` adds to the environment of the workers it forks. */
export const SERVE_WORKER_ENV: Readonly<Record<string, string>> = { ORDERGATE_CLUSTER_WORKER: '1' };

/**
 * True when the environment is that of a worker forked by `ordergate serve`: only then is its
 * primary ours to ask (another cluster manager's primary would not answer).
 */
export const forkedByServe = (env: Env = process.env): boolean =>
  env.ORDERGATE_CLUSTER_WORKER === SERVE_WORKER_ENV.ORDERGATE_CLUSTER_WORKER;

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const rate = integer(env, 'RATE_LIMIT_PER_SECOND', 1000, 0, 1_000_000);
  const primary = databaseUrl(env);
  const directUrl = databaseDirectUrl(env, primary);
  return Object.freeze({
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: host(env),
    databaseUrl: primary,
    databaseReadUrl: databaseReadUrl(env, primary),
    databaseDirectUrl: directUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databasePreparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS', directUrl === undefined),
    basePath: basePath(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    workers: integer(env, 'WORKERS', availableParallelism(), 1, 256),
    jsonCasing: oneOf(env, 'JSON_CASING', ['pascal', 'camel'] as const, 'pascal', { pascalcase: 'pascal', camelcase: 'camel' }),
    dateFormat: oneOf(env, 'DATE_FORMAT', ['wcf', 'iso8601'] as const, 'wcf', { iso: 'iso8601', microsoft: 'wcf', dotnet: 'wcf' }),
    bootstrapKey: bootstrapKey(env),
    trustProxy: trustProxy(env),
    tls: tls(env),
    rateLimitPerSecond: rate,
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST', rate * 2, 0, 10_000_000),
    redisUrl: redisUrl(env),
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 20, 0, 1_000_000),
    authFailureWindowSeconds: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
    allowApiKeyInQuery: boolean(env, 'ALLOW_APIKEY_IN_QUERY', false),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    defaultCurrency: defaultCurrency(env),
    webhook: webhook(env),
  });
}
