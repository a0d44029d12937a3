import { basePath } from '../base-path.js';
import { storedKey } from '../session.js';

/** One field's failure in a ServiceStack ResponseStatus. */
export interface FieldError {
  readonly ErrorCode: string;
  readonly FieldName: string;
  readonly Message: string;
}

/** An answer of the API that is not a success: its status and its ResponseStatus. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: readonly FieldError[],
  ) {
    super(message);
  }

  /** The message for one field (by its wire name, case-insensitively), if the API named it. */
  forField(name: string): string | undefined {
    const lower = name.toLowerCase();
    return this.errors.find((e) => e.FieldName.toLowerCase() === lower)?.Message;
  }
}

export interface ApiAnswer<T> {
  /** The HTTP status of the success (201 Created and 200 say different things for a PUT). */
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

// Every answer in the spec's PascalCase names and ISO 8601 dates, whatever the service's defaults.
const JSCONFIG = 'TextCase:PascalCase,DateHandler:ISO8601';

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

/**
 * A list item as ServiceStack's JSV reads it from a query: quoted when a comma, a quote, a leading
 * bracket or outer spaces would otherwise split or change it (a customer id `K-1,2` is one id).
 */
const jsvItem = (value: string | number): string => {
  const s = String(value);
  return /[",]|^\[|^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** A path of the API with its query; lists become comma-separated, as ServiceStack reads them. */
export function apiUrl(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.map(jsvItem).join(','));
    } else params.set(name, String(value));
  }
  params.set('jsconfig', JSCONFIG);
  return `${basePath}${path}?${params.toString()}`;
}

async function failure(res: Response): Promise<ApiError> {
  let status: { ErrorCode?: string; Message?: string; Errors?: FieldError[] } = {};
  try {
    status = ((await res.json()) as { ResponseStatus?: typeof status }).ResponseStatus ?? {};
  } catch {
    // Not a ResponseStatus (a proxy's page, a dropped connection): the status line must do.
  }
  return new ApiError(
    res.status,
    status.ErrorCode ?? String(res.status),
    status.Message ?? res.statusText ?? 'Request failed',
    status.Errors ?? [],
  );
}

/** Calls the API with the signed-in key; a non-2xx answer throws its ApiError. */
export async function call<T>(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; key?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const key = options.key ?? storedKey();
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      credentials: 'omit',
    });
  } catch {
    throw new ApiError(0, 'NetworkError', 'The service cannot be reached', []);
  }
  if (!res.ok) throw await failure(res);
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: res.headers };
}

export const get = async <T>(path: string, query?: Query): Promise<T> => (await call<T>('GET', path, query ? { query } : {})).body;
export const post = async <T>(path: string, body?: unknown): Promise<T> => (await call<T>('POST', path, { body: body ?? {} })).body;
/**
 * A POST that records something (a payment, a shipment…) with an Idempotency-Key: sent again after
 * a lost answer, it replays the first answer instead of recording twice.
 */
export const record = async <T>(path: string, body: unknown, idempotencyKey: string): Promise<T> =>
  (await call<T>('POST', path, { body, headers: { 'idempotency-key': idempotencyKey } })).body;
export const put = async <T>(path: string, body: unknown): Promise<T> => (await call<T>('PUT', path, { body })).body;
export const del = async <T>(path: string): Promise<T> => (await call<T>('DELETE', path)).body;
