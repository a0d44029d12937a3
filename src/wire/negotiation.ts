import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { formatNotServed } from '../errors.js';
import type { DateStyle } from './dates.js';

export type Casing = 'pascal' | 'camel';

/** How one response is written: JSON or JSONP, which key casing, which date style. */
export interface WireFormat {
  readonly jsonp: string | undefined;
  readonly casing: Casing;
  readonly dateStyle: DateStyle;
}

export interface WireDefaults {
  readonly casing: Casing;
  readonly dateStyle: DateStyle;
}

const SUFFIX = Symbol('ordergate.formatSuffix');
const UNSERVED = new Set(['xml', 'jsv', 'csv']);
type Suffixed = IncomingMessage & { [SUFFIX]?: string };

/**
 * Fastify's rewriteUrl hook: strips a `.json`/`.xml`/`.jsv`/`.csv` format suffix from the path so
 * the route matches, and remembers it for negotiation (`/customer.json`, `/customer/5/customfields/1,2.json`).
 */
export function stripFormatSuffix(req: IncomingMessage): string {
  const url = req.url ?? '/';
  // Most URLs have no dot at all: no suffix, and no slice nor pattern to run for them.
  if (url.indexOf('.') === -1) return url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const m = /\.(json|xml|jsv|csv)(\/?)$/i.exec(path);
  if (!m) return url;
  (req as Suffixed)[SUFFIX] = m[1]!.toLowerCase();
  return path.slice(0, m.index) + (q === -1 ? '' : url.slice(q));
}

function firstString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/** `EmitCamelCaseNames:true,DateHandler:ISO8601` → overrides of the defaults. */
function readJsConfig(text: string | undefined, defaults: WireDefaults): WireDefaults {
  if (!text) return defaults;
  let { casing, dateStyle } = defaults;
  for (const part of text.split(',')) {
    const [k = '', v = 'true'] = part.split(':').map((s) => s.trim().toLowerCase());
    if (k === 'emitcamelcasenames' || k === 'textcase')
      casing = v === 'true' || v === 'camelcase' ? 'camel' : v === 'false' || v === 'pascalcase' ? 'pascal' : casing;
    if (k === 'emitpascalcasenames' && v === 'true') casing = 'pascal';
    if (k === 'datehandler')
      dateStyle = v.startsWith('iso8601') ? 'iso8601' : v === 'timestampoffset' || v === 'dcjscompatible' ? 'wcf' : dateStyle;
  }
  return { casing, dateStyle };
}

/** ServiceStack sanitizes JSONP callback names: anything outside [A-Za-z0-9._] becomes `_`. */
export const sanitizeCallback = (name: string): string => name.replace(/[^A-Za-z0-9._]/g, '_');

// Clients send the same few Accept headers over and over: remember the verdict for those.
const acceptVerdicts = new Map<string, boolean>();
const ACCEPT_VERDICTS_MAX = 64;

function acceptsOnlyUnserved(accept: string | undefined): boolean {
  if (!accept) return false;
  let verdict = acceptVerdicts.get(accept);
  if (verdict === undefined) {
    verdict = judgeAccept(accept);
    if (acceptVerdicts.size < ACCEPT_VERDICTS_MAX && accept.length <= 256) acceptVerdicts.set(accept, verdict);
  }
  return verdict;
}

function judgeAccept(accept: string): boolean {
  const types = accept
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  if (types.length === 0) return false;
  return types.every((t) => /(^|\/)(xml|jsv|csv)$/.test(t) || t === 'text/xml' || t === 'application/xml');
}

/**
 * Decides the response format. Precedence as ServiceStack: path suffix, `?callback=`, `?format=`,
 * `Accept`, then JSON. Formats we do not serve (xml, jsv, csv) → 406.
 */
export function negotiate(request: FastifyRequest, defaults: WireDefaults): WireFormat {
  const query = request.query as Record<string, unknown> | undefined;
  const opts = readJsConfig(firstString(query?.jsconfig), defaults);
  const suffix = (request.raw as Suffixed)[SUFFIX];
  const callbackRaw = firstString(query?.callback);
  const jsonp = callbackRaw ? sanitizeCallback(callbackRaw) : undefined;
  const format = { jsonp, casing: opts.casing, dateStyle: opts.dateStyle };
  if (suffix !== undefined) {
    if (UNSERVED.has(suffix)) throw formatNotServed(suffix);
    return format;
  }
  if (jsonp) return format;
  const fmt = firstString(query?.format)?.toLowerCase();
  if (fmt !== undefined && UNSERVED.has(fmt)) throw formatNotServed(fmt);
  if (fmt === 'json') return format;
  if (acceptsOnlyUnserved(request.headers.accept)) throw formatNotServed(request.headers.accept ?? '');
  return format;
}

/** Negotiation that cannot fail, for error responses: falls back to plain JSON. */
export function negotiateForError(request: FastifyRequest, defaults: WireDefaults): WireFormat {
  try {
    return negotiate(request, defaults);
  } catch {
    const query = request.query as Record<string, unknown> | undefined;
    const opts = readJsConfig(firstString(query?.jsconfig), defaults);
    return { jsonp: undefined, casing: opts.casing, dateStyle: opts.dateStyle };
  }
}
