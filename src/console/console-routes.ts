import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageVersion } from '../package-version.js';
import { loadConsoleBuild, type ConsoleBuild } from './console-files.js';

// Scripts and styles only from the service's own files, no inline code of either kind; the page
// talks to the API on its own origin and nowhere else.
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";
const FOREVER = 'public, max-age=31536000, immutable';
const HTML = 'text/html; charset=utf-8';

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The one page of the console: every path under /console/ answers it, the console routes in the browser. */
export function consolePage(build: ConsoleBuild, basePath: string, version: string): string {
  const assets = `${basePath}/console/assets/`;
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="ordergate-base-path" content="${escapeAttr(basePath)}">` +
    `<meta name="ordergate-version" content="${escapeAttr(version)}">` +
    '<title>ordergate console</title>' +
    `<link rel="stylesheet" href="${escapeAttr(assets + build.style)}">` +
    `<script type="module" src="${escapeAttr(assets + build.script)}"></script>` +
    '</head><body><div id="app"></div><noscript>The ordergate console needs JavaScript.</noscript></body></html>\n'
  );
}

/** Whether a request for `/` comes from a browser (which then goes to the console) rather than an API client. */
export const wantsHtml = (request: FastifyRequest): boolean => /\btext\/html\b/i.test(request.headers.accept ?? '');

/**
 * The operator console at `<BASE_PATH>/console/`: built files read on the first request and then
 * kept in memory, hashed assets cached for good, the page itself revalidated on every load. No
 * key is needed for the files: every call the console makes carries the key its user signs in with.
 */
export function registerConsole(app: FastifyInstance, basePath: string): void {
  let build: ConsoleBuild | undefined | null = null;
  let page = '';
  const load = (request: FastifyRequest): ConsoleBuild | undefined => {
    if (build === null) {
      build = loadConsoleBuild();
      if (build) page = consolePage(build, basePath, packageVersion());
      else request.log.warn('the console was not built (npm run build): /console/ answers 404');
    }
    return build;
  };
  const notBuilt = (reply: FastifyReply): FastifyReply =>
    reply.code(404).type('text/plain; charset=utf-8').send('The console was not built: run npm run build.');
  const sendPage = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!load(request)) return notBuilt(reply);
    return reply.header('content-security-policy', CONSOLE_CSP).header('cache-control', 'no-cache').type(HTML).send(page);
  };
  app.get('/console', sendPage);
  app.get('/console/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (!rest.toLowerCase().startsWith('assets/')) return sendPage(request, reply);
    const files = load(request);
    if (!files) return notBuilt(reply);
    const asset = files.assets.get(rest.slice('assets/'.length));
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('No such file.');
    return reply.header('content-security-policy', CONSOLE_CSP).header('cache-control', FOREVER).type(asset.type).send(asset.body);
  });
}
