import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger: the pino child with the request's id, made when the request first writes a
 * line at an enabled level. Fastify makes a child for every request, and pino's child serializes
 * its bindings and sets up its redaction (1–2 µs); most requests write no line at the service's
 * usual level (`warn`), and Fastify's own `info` lines per request are dropped by the level alone.
 * A line that is written is the child's, with the same bindings, so the log does not change.
 */
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled(level: string): boolean },
    private readonly bindingsOf: Bindings,
  ) {}

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindingsOf));
  }

  get level(): LevelWithSilentOrString {
    return this.#child === undefined ? this.parent.level : this.#child.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  // Each level forwards its arguments as they came (a rest parameter would allocate on every
  // call, and Fastify calls `info` twice per request however few lines are written).
  /* eslint-disable prefer-rest-params -- see above */
  fatal(): void {
    this.#write('fatal', arguments);
  }
  error(): void {
    this.#write('error', arguments);
  }
  warn(): void {
    this.#write('warn', arguments);
  }
  info(): void {
    this.#write('info', arguments);
  }
  debug(): void {
    this.#write('debug', arguments);
  }
  trace(): void {
    this.#write('trace', arguments);
  }
  /* eslint-enable prefer-rest-params */
  silent(): void {}

  #write(level: Level, args: IArguments): void {
    if (this.#child === undefined && !this.parent.isLevelEnabled(level)) return;
    const child = this.#real();
    (child[level] as (...a: unknown[]) => void).apply(child, args as unknown as unknown[]);
  }
}

/**
 * Fastify's child logger per request, made lazily (above); a route's own level or serializers
 * (none of the service's routes has them) get pino's child at once.
 */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  const parent = logger as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (options.level !== undefined || options.serializers !== undefined || typeof parent.isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  return new RequestLogger(parent as FastifyBaseLogger & { isLevelEnabled(level: string): boolean }, bindings);
}
