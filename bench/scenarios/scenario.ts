import type { BenchData, BenchDatabase } from '../lib/database.js';
import { authHeaders, load, type LoadResult, type RequestShape } from '../lib/load.js';
import type { ServerProcess } from '../lib/processes.js';
import type { Backend } from '../lib/settings.js';

/** Where a scenario runs, and what it may know of the seeded data. */
export interface ScenarioContext extends Omit<BenchData, 'seeding'> {
  readonly backend: Backend;
  readonly server: ServerProcess;
  readonly db: BenchDatabase;
  /** The server is the limit server (bench/limit-server.ts), not the service: measure the load alone. */
  readonly againstLimit?: boolean;
}

export interface ScenarioResult {
  readonly status: 'ok' | 'not available' | 'failed';
  readonly note?: string;
  readonly load?: LoadResult;
  /** Figures beyond req/s and latency, such as customers/s of a sync. */
  readonly extra?: Readonly<Record<string, number>>;
}

export interface Scenario {
  readonly id: string;
  readonly label: string;
  /** Only these backends (default: every one). */
  readonly backends?: readonly Backend[];
  /** Whether it needs the seeded orders (10^6 on SQLite: seeded only when a scenario of the run does). */
  readonly usesOrders?: boolean;
  /**
   * The requests of a read the limit server answers too (bench/limit-server.ts): the run measures
   * it there as well, and then the two in loads taking turns, for the "× limit" column.
   */
  readonly limitRequests?: (ctx: ScenarioContext) => RequestShape[];
  /**
   * The requests of a scenario judged against the yardstick itself (the floor): the run measures
   * them and the yardstick's own in loads taking turns, for the target's ratio.
   */
  readonly yardstickRequests?: readonly RequestShape[];
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}

export const notAvailable = (what: string): ScenarioResult => ({ status: 'not available', note: `${what} not available` });

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One request to the service, with the bench key. */
export async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...authHeaders(), 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text for the message
  }
  return { status: res.status, body: parsed };
}

/** Whether an answer says the route or operation does not exist (yet), rather than a domain 404. */
export function isMissingRoute(answer: Answer): boolean {
  const rs = (answer.body as { ResponseStatus?: { ErrorCode?: string; Message?: string } } | undefined)?.ResponseStatus;
  if (answer.status === 404) return (rs?.Message ?? '').startsWith('Handler for Request not found');
  return answer.status === 405 && rs?.ErrorCode === 'NotImplementedException';
}

export function describe(answer: Answer): string {
  return `HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
}

/** The demo customer id of seed number n. */
export const customerId = (n: number): string => `C${String(n).padStart(8, '0')}`;

/** A deterministic spread of customer numbers 1..max (the same in every run, so runs compare). */
export function spread(count: number, max: number, seed = 1): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push((x % max) + 1);
  }
  return out;
}

/** A load failure of any kind (non-2xx, socket errors) makes its figures suspect: say so. */
export function loadNote(load: LoadResult): string | undefined {
  if (load.non2xx === 0 && load.errors === 0) return undefined;
  const codes = Object.entries(load.statusCodes)
    .filter(([c]) => !c.startsWith('2'))
    .map(([c, n]) => `${n}× ${c}`)
    .join(', ');
  return `errors: ${[codes, load.errors > 0 ? `${load.errors} socket errors` : ''].filter(Boolean).join(', ')}`;
}

/**
 * The load of a request/response scenario, after one request is checked (`wrong` says what is
 * wrong with its answer, or undefined): the scenario must measure the real answer, not an error.
 */
export async function checkedLoad(
  ctx: ScenarioContext,
  requests: RequestShape[],
  wrong: (answer: Answer) => string | undefined,
  connections?: number,
): Promise<ScenarioResult> {
  const req = requests[0]!;
  const problem = wrong(await call(ctx.server, req.method ?? 'GET', req.path, req.body === undefined ? undefined : JSON.parse(req.body)));
  if (problem) return { status: 'failed', note: problem };
  const result = await load({
    url: ctx.server.url,
    requests,
    servingPids: ctx.server.servingPids,
    ...(connections ? { connections } : {}),
  });
  return { status: 'ok', load: result, note: loadNote(result) };
}
