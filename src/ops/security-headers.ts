import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

// Answers are JSON (or JSONP, text): nothing may be loaded or framed from them.
const API_CSP = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
};
// The server-rendered pages (/metadata, /json/metadata) carry one inline style sheet and no script.
// /docs sets its own policy (swagger-ui's staticCSP, in src/docs/docs-routes.ts).
const PAGE_CSP = { ...API_CSP, directives: { ...API_CSP.directives, styleSrc: ["'unsafe-inline'"] } };
const PAGES = /\/(json\/)?metadata$/i;
const NOT_FROM_HELMET = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sets with these options, worked out once. The plugin itself rebuilds
 * helmet's middleware and sets each header on every request (about 15 µs a request here); the
 * values never change, so the service sets them as one precomputed object.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const res = await probe.inject('/');
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!NOT_FROM_HELMET.has(name) && typeof value === 'string') headers[name] = value;
  return headers;
}

/**
 * Helmet's headers, chosen for an HTTP API:
 * - Content-Security-Policy `default-src 'none'; frame-ancestors 'none'` on API answers.
 * - Cross-Origin-Resource-Policy `cross-origin`: JSONP (`?callback=`) is loaded by `<script>` from
 *   other origins; helmet's `same-origin` would block exactly that.
 * - Strict-Transport-Security only when the service itself speaks TLS (TLS_CERT/TLS_KEY); behind a
 *   TLS proxy that proxy sets it. No upgrade-insecure-requests: plain HTTP on loopback is normal.
 * - Referrer-Policy `no-referrer`, X-Frame-Options `DENY`, X-Content-Type-Options `nosniff`,
 *   Cross-Origin-Opener-Policy `same-origin`.
 */
function helmetOptions(config: Pick<Config, 'tls'>): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: API_CSP,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: config.tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Headers for old browsers rendering documents (IE8 downloads, Flash policies, the XSS auditor,
    // DNS prefetch, agent clusters): nothing an API answer needs, and each costs bytes on every answer.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xDnsPrefetchControl: false,
    originAgentCluster: false,
  };
}

/** The security headers of every API answer, by lower-case name (the pages' policy aside). */
export const securityHeaderValues = (config: Pick<Config, 'tls'>): Promise<Record<string, string>> => helmetHeaders(helmetOptions(config));

async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'tls'>): Promise<void> {
  const options = helmetOptions(config);
  const headers = await helmetHeaders(options);
  const pagePolicy = (await helmetHeaders({ ...options, contentSecurityPolicy: PAGE_CSP }))['content-security-policy']!;
  const pageHook: onRequestHookHandler = (_request, reply, done) => {
    reply.header('content-security-policy', pagePolicy);
    done();
  };
  // Registered before the routes exist, so the pages get their policy as they are added; a route's
  // own onRequest hooks run after this instance-wide one.
  app.addHook('onRoute', (route) => {
    if (!PAGES.test(route.url)) return;
    route.onRequest = [
      ...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]),
      pageHook,
    ];
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** Helmet's headers (above) on every answer, and the pages' own policy on theirs. */
export const securityHeaders = fp(
  async (app, opts: { readonly config: Pick<Config, 'tls'> }) => registerSecurityHeaders(app, opts.config),
  {
    name: 'security-headers',
  },
);
