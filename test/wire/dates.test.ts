import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeWcfDates, formatWireDate, parseWireDate } from '../../src/wire/dates.js';
import { describeEachBackend, describeOnce, json } from '../helpers/test-app.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';
import { wireTestOperations } from '../helpers/wire-test-operations.js';

const MS = 1700000000000; // 2023-11-14T22:13:20.000Z

describe('date codec', () => {
  test('reads every WCF form; the ms are the instant and the offset is informational', () => {
    for (const text of [
      `\\/Date(${MS})\\/`,
      `/Date(${MS})/`,
      `\\/Date(${MS}+0100)\\/`,
      `/Date(${MS}-0500)/`,
      `/Date(${MS}-0000)/`,
      `/Date(${MS} 0100)/`,
      ` /Date(${MS})/ `,
    ]) {
      assert.equal(parseWireDate(text), MS, text);
    }
    assert.equal(parseWireDate('/Date(-86400000)/'), -86400000);
    assert.equal(parseWireDate('/Date(0)/'), 0);
  });

  test('reads ISO 8601: Z, offsets with and without colon, fractions, no zone = UTC, plain dates', () => {
    const cases: [string, number][] = [
      ['2023-11-14T22:13:20Z', MS],
      ['2023-11-14T22:13:20.000Z', MS],
      ['2023-11-14t22:13:20z', MS],
      ['2023-11-14T23:13:20+01:00', MS],
      ['2023-11-14T23:13:20+0100', MS],
      ['2023-11-14T23:13:20+01', MS],
      ['2023-11-14T23:13:20 01:00', MS],
      ['2023-11-14T16:43:20-05:30', MS],
      ['2023-11-14T22:13:20', MS],
      ['2023-11-14 22:13:20', MS],
      ['2023-11-14T22:13', MS - 20_000],
      ['2023-11-14T22:13:20.5Z', MS + 500],
      ['2023-11-14T22:13:20,25Z', MS + 250],
      ['2023-11-14T22:13:20.123456789Z', MS + 123],
      ['2023-11-14', Date.UTC(2023, 10, 14)],
      ['2024-02-29', Date.UTC(2024, 1, 29)],
      ['0050-01-01', -60589296000000],
    ];
    for (const [text, ms] of cases) assert.equal(parseWireDate(text), ms, text);
  });

  test('refuses what is not a date', () => {
    for (const text of [
      '',
      'yesterday',
      '2023-02-30',
      '2023-02-29',
      '2023-13-01',
      '2023-00-10',
      '2023-11-14T24:00',
      '2023-11-14T22:60',
      '2023-11-14T22:13:20+19:00',
      '/Date(abc)/',
      '/Date(1.5)/',
      '/Date()/',
      'Date(5)',
      `/Date(${MS}+01)/`,
      '1700000000000',
      '23-11-14',
    ]) {
      assert.equal(parseWireDate(text), undefined, JSON.stringify(text));
    }
  });

  test('writes /Date(ms-0000)/ or ISO 8601, and escapes the slashes in the JSON text only', () => {
    assert.equal(formatWireDate(MS, 'wcf'), `/Date(${MS}-0000)/`);
    assert.equal(formatWireDate(-5, 'wcf'), '/Date(-5-0000)/');
    assert.equal(formatWireDate(MS, 'iso8601'), '2023-11-14T22:13:20.000Z');
    const text = escapeWcfDates(JSON.stringify({ A: `/Date(${MS}-0000)/`, B: '/Date(x)/' }));
    assert.equal(text, `{"A":"\\/Date(${MS}-0000)\\/","B":"/Date(x)/"}`);
    assert.deepEqual(JSON.parse(text), { A: `/Date(${MS}-0000)/`, B: '/Date(x)/' });
  });
});

describeOnce(
  'dates on the wire',
  (t) => {
    test('every input form binds in the query string, the path and the body', async () => {
      const forms = [
        `\\/Date(${MS})\\/`,
        `/Date(${MS})/`,
        `/Date(${MS}+0100)/`,
        `\\/Date(${MS}-0500)\\/`,
        '2023-11-14T23:13:20+01:00',
        '2023-11-14T22:13:20Z',
        '2023-11-14T22:13:20',
      ];
      for (const form of forms) {
        const q = await t().inject(`/echo?When=${encodeURIComponent(form)}`);
        assert.equal(json(q).When, `/Date(${MS}-0000)/`, `query ${form}`);
        const p = await t().inject(`/echo/at/${encodeURIComponent(form)}`);
        assert.equal(json(p).When, `/Date(${MS}-0000)/`, `path ${form}`);
        const b = await t().inject({ method: 'POST', url: '/echo', payload: { When: form, Dates: [form], Nested: { At: form } } });
        assert.equal(json(b).When, `/Date(${MS}-0000)/`, `body ${form}`);
        assert.deepEqual(json(b).Dates, [`/Date(${MS}-0000)/`]);
        assert.equal(json(b).Nested.At, `/Date(${MS}-0000)/`);
      }
      // The JSON text `"\/Date(…)\/"` (what ServiceStack clients send) and an unencoded `+` in a query.
      const raw = await t().inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json' },
        payload: `{"When":"\\/Date(${MS}+0100)\\/"}`,
      });
      assert.equal(json(raw).When, `/Date(${MS}-0000)/`);
      assert.equal(json(await t().inject(`/echo?When=/Date(${MS}+0100)/`)).When, `/Date(${MS}-0000)/`);
      assert.equal(json(await t().inject('/echo?When=2023-11-14T23:13:20+01:00')).When, `/Date(${MS}-0000)/`);
      assert.deepEqual(json(await t().inject(`/echo?Dates=/Date(${MS})/,2023-11-14`)).Dates, [
        `/Date(${MS}-0000)/`,
        `/Date(${Date.UTC(2023, 10, 14)}-0000)/`,
      ]);
    });

    test('dates go out as \\/Date(ms-0000)\\/ with the backslashes in the raw JSON text', async () => {
      const res = await t().inject(`/echo?When=${MS}`.replace(`${MS}`, `/Date(${MS})/`));
      assert.ok(res.body.includes(`"When":"\\/Date(${MS}-0000)\\/"`), res.body);
      assert.equal(json(res).DateStyle, 'wcf');
      const negative = await t().inject('/echo?When=1960-01-01');
      assert.ok(negative.body.includes(`"\\/Date(${Date.UTC(1960, 0, 1)}-0000)\\/"`), negative.body);
    });

    test('?jsconfig=DateHandler:ISO8601 switches output to ISO 8601, also in the sync watermark', async () => {
      const res = await t().inject(`/echo?When=/Date(${MS})/&jsconfig=DateHandler:ISO8601`);
      assert.equal(json(res).When, '2023-11-14T22:13:20.000Z');
      assert.equal(json(res).DateStyle, 'iso8601');
      const lower = await t().inject(`/echo?When=/Date(${MS})/&jsconfig=datehandler:iso8601,EmitCamelCaseNames:true`);
      assert.equal(json(lower).when, '2023-11-14T22:13:20.000Z');
      const search = await t().inject('/customer/?Identifiers=none&jsconfig=DateHandler:ISO8601');
      assert.match(String(search.headers['x-sync-watermark']), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const wcf = await t().inject('/customer/?Identifiers=none');
      assert.match(String(wcf.headers['x-sync-watermark']), /^\/Date\(\d+-0000\)\/$/);
    });

    test('a date that cannot be read → 400 SerializationException naming the field', async () => {
      assertResponseStatus(await t().inject('/echo?When=2023-02-30'), 400, 'SerializationException', 'When');
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/echo', payload: { When: MS } }),
        400,
        'SerializationException',
        'When',
      );
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/echo', payload: { Nested: { At: 'soon' } } }),
        400,
        'SerializationException',
        'Nested.At',
      );
      assertResponseStatus(await t().inject('/echo/at/never'), 400, 'SerializationException', 'When');
    });
  },
  {},
  { extraOperations: wireTestOperations },
);

describeOnce(
  'dates with DATE_FORMAT=iso8601',
  (t) => {
    test('dates go out as ISO 8601 by default; ?jsconfig=DateHandler can switch back to WCF', async () => {
      const res = await t().inject(`/echo?When=/Date(${MS})/`);
      assert.equal(json(res).When, '2023-11-14T22:13:20.000Z');
      assert.match(String((await t().inject('/customer/?Identifiers=x')).headers['x-sync-watermark']), /Z$/);
      const wcf = await t().inject(`/echo?When=/Date(${MS})/&jsconfig=DateHandler:TimestampOffset`);
      assert.ok(wcf.body.includes(`"\\/Date(${MS}-0000)\\/"`), wcf.body);
    });
  },
  { DATE_FORMAT: 'iso8601' },
  { extraOperations: wireTestOperations },
);

// Per backend: each date form must reach the same instant in the comparison with the stored stamp.
describeEachBackend('LastModifiedAfter in every date form', (t) => {
  test('LastModifiedAfter is strict and reads every date form to the same instant', async () => {
    await t().inject({ method: 'PUT', url: '/customer/date-1', payload: {} });
    const first = await t().inject('/customer/?Identifiers=date-1');
    const stamp = Number(/\d+/.exec(String(first.headers['x-sync-watermark']))![0]);
    const before = stamp - 1;
    const forms = (ms: number): string[] => {
      const iso = new Date(ms).toISOString();
      const plus1 = new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00');
      return [`/Date(${ms})/`, `\\/Date(${ms}+0200)\\/`, iso, plus1];
    };
    for (const form of forms(before)) {
      const res = await t().inject(`/customer/?Identifiers=date-1&LastModifiedAfter=${encodeURIComponent(form)}`);
      assert.equal(json(res).length, 1, `found after ${form}`);
    }
    for (const form of forms(stamp)) {
      const res = await t().inject(`/customer/?Identifiers=date-1&LastModifiedAfter=${encodeURIComponent(form)}`);
      assert.equal(json(res).length, 0, `strictly after ${form}`);
    }
    const body = await t().inject({
      method: 'POST',
      url: '/customer/',
      payload: { Identifiers: ['date-1'], LastModifiedAfter: `/Date(${before}-0000)/` },
    });
    assert.equal(json(body).length, 1);
  });
});
