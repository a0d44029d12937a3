import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOnce } from '../helpers/test-app.js';

const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

describeOnce('security headers', (t) => {
  test('API answers, errors and JSONP: a CSP that allows nothing, no framing, no referrer, loadable cross-origin, no HSTS without TLS', async () => {
    const answers = [
      await t().inject('/customer/?Identifiers=x'),
      await t().inject('/customer/?Identifiers=x&callback=cb'),
      await t().inject({ url: '/customer/', headers: { authorization: 'Bearer wrong' } }),
      await t().inject('/no/such/route'),
      await t().inject('/openapi.json'),
      await t().inject('/health/ready'),
    ];
    for (const res of answers) {
      const where = `${res.statusCode} ${String(res.headers['content-type'])}`;
      assert.equal(res.headers['content-security-policy'], API_CSP, where);
      assert.equal(res.headers['x-frame-options'], 'DENY', where);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', where);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', where);
      assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin', where);
      // JSONP answers are loaded with <script> from other origins: same-origin would block them.
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin', where);
      assert.equal(res.headers['strict-transport-security'], undefined, where);
      for (const legacy of [
        'x-xss-protection',
        'x-download-options',
        'x-dns-prefetch-control',
        'x-permitted-cross-domain-policies',
        'origin-agent-cluster',
      ]) {
        assert.equal(res.headers[legacy], undefined, `${legacy} on ${where}`);
      }
    }
  });

  test('the HTML pages get a policy that allows their inline style sheet, /docs the one swagger-ui needs', async () => {
    for (const url of ['/metadata', '/json/metadata?op=SearchCustomers']) {
      const res = await t().inject(url);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-security-policy'], `${API_CSP};style-src 'unsafe-inline'`, url);
      assert.match(res.body, /<style>/);
    }
    const docs = await t().inject('/docs/');
    assert.equal(docs.statusCode, 200);
    const csp = String(docs.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /default-src 'none'/);
  });
});
