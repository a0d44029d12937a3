import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loggedPath, scrubLogLine } from '../../src/ops/logging.js';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { wireTestOperations } from '../helpers/wire-test-operations.js';

const IBAN = 'DE89370400440532013000';
const IBAN_SPACED = 'DE89 3704 0044 0532 0130 00';
const BIC = 'COBADEFFXXX';
const EMAIL = 'jane.doe@example.com';

describe('log scrubbing', () => {
  test('masks e-mail addresses, IBANs (also spaced) and API keys anywhere in a line', () => {
    const line = JSON.stringify({
      msg: `x ${EMAIL} y ${IBAN} z ${IBAN_SPACED} k og_abcdefghijklmnopqrstuvwxyz0123`,
      url: '/customer/a.b@c.org',
    });
    const out = scrubLogLine(line);
    for (const secret of [EMAIL, IBAN, IBAN_SPACED, 'og_abcdefghijklmnop', 'a.b@c.org'])
      assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.match(out, /\[email\].*\[iban\].*\[iban\].*\[key\]/);
    const plain =
      '{"level":30,"reqId":"6f1c2a9e-0b7d-4c53-9f2e-1d3a5b7c9e0f","req":{"method":"GET","url":"/customer/C00000001"},"msg":"incoming request"}';
    assert.equal(scrubLogLine(plain), plain, 'ordinary lines are untouched');
  });

  test('a logged path has no query string, is percent-decoded, and BIC-shaped segments and list items are masked', () => {
    const cases: [string, string][] = [
      ['/customer/COBADEFFXXX', '/customer/[bic]'],
      ['/customer/DEUTDEFF', '/customer/[bic]'],
      ['/customer/DEUTDEFF500/customfields', '/customer/[bic]/customfields'],
      ['/customer/MARKDEF1100', '/customer/[bic]'],
      ['/customer/x,COBADEFFXXX,DEUTDEFF', '/customer/x,[bic],[bic]'],
      ['/customer/COBADEFFXXX.json', '/customer/[bic].json'],
      ['/orders/COBADEFFXXX.json/confirm', '/orders/[bic].json/confirm'],
      ['/customer/COBADEFFXXX.v2x', '/customer/[bic].v2x'],
      ['/customer/%43%4F%42%41%44%45%46%46%58%58%58', '/customer/[bic]'],
      ['/customer/COBADEFFXXX?Bic=DEUTDEFF500', '/customer/[bic]'],
      ['/customer/jane%40example.org', '/customer/jane@example.org'],
      // Not BIC-shaped, or not a whole segment: untouched.
      ['/customer/C00000001', '/customer/C00000001'],
      ['/customer/ABCDEFG', '/customer/ABCDEFG'],
      ['/customer/ABCDEFGHIJ', '/customer/ABCDEFGHIJ'],
      ['/customer/ABCDEFGHIJKL', '/customer/ABCDEFGHIJKL'],
      ['/customer/cobadeffxxx', '/customer/cobadeffxxx'],
      ['/customer/COBA1EFFXXX', '/customer/COBA1EFFXXX'],
      ['/customer/xCOBADEFFXXX', '/customer/xCOBADEFFXXX'],
      ['/customer/COBADEFFXXX-2', '/customer/COBADEFFXXX-2'],
      ['/json/reply/ConfirmOrder', '/json/reply/ConfirmOrder'],
      ['/customer/bad%zzescape', '/customer/bad%zzescape'],
    ];
    for (const [url, logged] of cases) assert.equal(loggedPath(url), logged, url);
  });
});

describeEachBackend(
  'request logs',
  (t) => {
    test('bank data, e-mail and keys in headers, query strings, bodies and error messages never reach the log', async () => {
      const before = t().logs.length;
      const headers = { 'x-customer-email': EMAIL, 'x-iban': IBAN };
      await t().inject({
        method: 'PUT',
        url: `/customer/log-1?Email=${EMAIL}&Iban=${IBAN}&Bic=${BIC}`,
        headers,
        payload: { FirstName: EMAIL, Street: IBAN, Company: BIC },
      });
      await t().inject({
        method: 'POST',
        url: '/customer/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `Identifiers=${EMAIL}&Iban=${IBAN}`,
      });
      await t().inject(`/customer/?Take=${IBAN}&Identifiers=${EMAIL},${BIC}`);
      await t().inject({ url: `/customer/?Skip=${EMAIL}`, headers: { authorization: 'Bearer og_wrong_key_with_enough_characters' } });
      await t().inject({
        url: `/customer/${EMAIL}`,
        headers: { authorization: `Basic ${Buffer.from(`${t().keys.all}:`).toString('base64')}` },
      });
      await t().inject(`/explode?Iban=${IBAN}`);
      await t().inject(`/no/page?Email=${EMAIL}`);
      const lines = t().logs.slice(before);
      assert.ok(lines.length >= 14, `request lines were written (${lines.length})`);
      for (const line of lines) {
        for (const secret of [
          IBAN,
          IBAN_SPACED,
          BIC,
          EMAIL,
          'example.com',
          ...Object.values(t().keys),
          'og_wrong_key',
          'Bearer',
          'Basic ',
        ]) {
          assert.ok(!line.includes(secret), `'${secret}' in log line: ${line}`);
        }
        const entry = JSON.parse(line) as { req?: { url: string } };
        if (entry.req) assert.ok(!entry.req.url.includes('?'), `query string logged: ${line}`);
      }
      assert.ok(
        lines.some((l) => l.includes('"level":50') && l.includes('[email]') && l.includes('[iban]')),
        'the 500 is logged, scrubbed',
      );
    });

    test('every request line carries the request id that the response echoes', async () => {
      const before = t().logs.length;
      const res = await t().inject({ url: '/customer/?Identifiers=x', headers: { 'x-request-id': 'trace-me-123' } });
      assert.equal(res.headers['x-request-id'], 'trace-me-123');
      assert.deepEqual(json(res), []);
      const lines = t()
        .logs.slice(before)
        .map((l) => JSON.parse(l) as { reqId?: string; msg: string });
      assert.deepEqual(
        lines.map((l) => [l.reqId, l.msg]),
        [
          ['trace-me-123', 'incoming request'],
          ['trace-me-123', 'request completed'],
        ],
      );
    });
  },
  {},
  { extraOperations: wireTestOperations },
);
