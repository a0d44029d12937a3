import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOnce } from '../helpers/test-app.js';

const CSP_SCRIPT = /(?:^|;)\s*script-src 'self'(?:;|$)/;

for (const basePath of ['', '/api/v1']) {
  describeOnce(
    `the console's files at ${basePath || '(no BASE_PATH)'}/console/`,
    (t) => {
      test('GET / from a browser goes to the console; an API client keeps its 404', async () => {
        for (const root of basePath ? ['/', basePath, `${basePath}/`] : ['/']) {
          const browser = await t().app.inject({ url: root, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
          assert.equal(browser.statusCode, 303, root);
          assert.equal(browser.headers.location, `${basePath}/console/`);
        }
        const api = await t().app.inject({ url: '/', headers: { accept: 'application/json' } });
        assert.equal(api.statusCode, 404);
        assert.equal(api.json().ResponseStatus.ErrorCode, 'NotFound');
        const post = await t().app.inject({ method: 'POST', url: '/', headers: { accept: 'text/html' } });
        assert.equal(post.statusCode, 404, 'only GET is sent on');
      });

      test('the page: no key needed, no-cache, a CSP without unsafe-inline or unsafe-eval, assets under the base path', async () => {
        for (const path of ['/console/', '/console', '/console/orders/12', '/console/customers?Query=x']) {
          const res = await t().app.inject({ url: `${basePath}${path}`, headers: { authorization: '' } });
          assert.equal(res.statusCode, 200, path);
          assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
          assert.equal(res.headers['cache-control'], 'no-cache');
          const csp = String(res.headers['content-security-policy']);
          assert.match(csp, CSP_SCRIPT);
          assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
          assert.match(csp, /connect-src 'self'/);
          assert.match(res.body, new RegExp(`<script type="module" src="${basePath}/console/assets/console-[A-Z0-9]+\\.js"></script>`));
          assert.match(res.body, new RegExp(`<meta name="ordergate-base-path" content="${basePath}">`));
          assert.doesNotMatch(res.body, /<script>|<style>| style=/, 'nothing inline');
        }
      });

      test('hashed assets: their types, cached for good; unknown ones 404', async () => {
        const page = (await t().app.inject({ url: `${basePath}/console/` })).body;
        const script = /src="([^"]+\.js)"/.exec(page)![1]!;
        const style = /href="([^"]+\.css)"/.exec(page)![1]!;
        const js = await t().app.inject({ url: script });
        assert.equal(js.statusCode, 200);
        assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
        assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
        const css = await t().app.inject({ url: style });
        assert.equal(css.statusCode, 200);
        assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
        assert.ok(css.body.length > 1000);
        const missing = await t().app.inject({ url: `${basePath}/console/assets/console-NOPE.js` });
        assert.equal(missing.statusCode, 404);
        const outside = await t().app.inject({ url: `${basePath}/console/assets/..%2F..%2Fpackage.json` });
        assert.equal(outside.statusCode, 404);
      });
    },
    basePath ? { BASE_PATH: basePath } : {},
  );
}
