import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend } from '../helpers/test-app.js';
import { currentWatermark, idsOf, putCustomer, stampOf, watermarkOf, writeTogether } from './customer-helpers.js';

const iso = (ms: number): string => new Date(ms).toISOString();
/** `ms` as local time at a fixed offset of +hh:mm, e.g. 2024-05-01T14:00:00.000+02:00. */
const isoAt = (ms: number, offsetMinutes: number): string => {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

describeEachBackend(
  'SearchCustomers: LastModifiedAfter, ordering, both filters',
  (t) => {
    test('every date form; strictly after', async () => {
      await putCustomer(t(), 'dt-old');
      const s = await putCustomer(t(), 'dt-new');
      const forms: Array<(ms: number) => string> = [
        (ms) => `\\/Date(${ms})\\/`,
        (ms) => `\\/Date(${ms}+0100)\\/`,
        (ms) => `\\/Date(${ms}-0500)\\/`,
        (ms) => `/Date(${ms})/`,
        (ms) => `/Date(${ms}-0000)/`,
        (ms) => iso(ms),
        (ms) => iso(ms).slice(0, -1), // no zone: UTC
        (ms) => isoAt(ms, 120),
        (ms) => isoAt(ms, -330),
      ];
      for (const form of forms) {
        for (const [ms, want] of [
          [s - 1, ['dt-new']],
          [s, []],
        ] as const) {
          const text = form(ms);
          const viaQuery = idsOf(await t().inject(`/customer/?Identifiers=dt-old,dt-new&LastModifiedAfter=${encodeURIComponent(text)}`));
          assert.deepEqual(viaQuery, want, `query ${text}`);
          const viaBody = idsOf(
            await t().inject({
              method: 'POST',
              url: '/customer/',
              payload: { Identifiers: ['dt-old', 'dt-new'], lastModifiedAfter: text },
            }),
          );
          assert.deepEqual(viaBody, want, `body ${text}`);
          const viaForm = idsOf(
            await t().inject({
              method: 'POST',
              url: '/customer/',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: `Identifiers=dt-old,dt-new&LastModifiedAfter=${encodeURIComponent(text)}`,
            }),
          );
          assert.deepEqual(viaForm, want, `form ${text}`);
        }
      }
      assert.deepEqual(
        idsOf(await t().inject('/customer/?Identifiers=dt-old,dt-new&LastModifiedAfter=2000-01-01')),
        ['dt-old', 'dt-new'],
        'plain date',
      );
      assert.deepEqual(
        idsOf(await t().inject('/customer/?Identifiers=dt-old,dt-new&LastModifiedAfter=2999-12-31')),
        [],
        'plain date in the future',
      );
    });

    test('ordered by modification time, then CustomerId; both filters AND', async () => {
      const before = await currentWatermark(t().store);
      await putCustomer(t(), 'or-c');
      await putCustomer(t(), 'or-a');
      const mid = await putCustomer(t(), 'or-b');
      await writeTogether(t().store, ['or-z', 'or-x', 'or-y'], { City: 'Ulm' });
      const all = idsOf(await t().inject(`/customer/?LastModifiedAfter=/Date(${before})/`));
      assert.deepEqual(all, ['or-c', 'or-a', 'or-b', 'or-x', 'or-y', 'or-z']);
      const both = idsOf(
        await t().inject({
          method: 'POST',
          url: '/customer/',
          payload: { Identifiers: ['or-a', 'or-b', 'or-y', 'or-c'], LastModifiedAfter: `/Date(${mid - 1})/` },
        }),
      );
      assert.deepEqual(both, ['or-b', 'or-y']);
      await putCustomer(t(), 'or-c', { City: 'Jena' });
      assert.deepEqual(
        idsOf(await t().inject(`/customer/?LastModifiedAfter=/Date(${before})/`)),
        ['or-a', 'or-b', 'or-x', 'or-y', 'or-z', 'or-c'],
        'an update moves a customer to the end',
      );
    });

    test('neither filter returns every customer', async () => {
      await putCustomer(t(), 'all-1');
      const res = await t().inject('/customer/');
      const ids = idsOf(res);
      assert.ok(ids.includes('all-1') && ids.includes('dt-old') && ids.includes('or-z'));
      assert.equal(new Set(ids).size, ids.length);
    });
  },
  {},
  { pgbouncer: true },
);

describeEachBackend(
  'SearchCustomers: the sync watermark',
  (t) => {
    test('passing the watermark back returns exactly what changed since, and the header follows the date style', async () => {
      const first = await t().inject('/customer/');
      assert.match(String(first.headers['x-sync-watermark']), /^\/Date\(\d+-0000\)\/$/);
      const wm = watermarkOf(first);
      const again = await t().inject(`/customer/?LastModifiedAfter=${encodeURIComponent(String(first.headers['x-sync-watermark']))}`);
      assert.deepEqual(idsOf(again), []);
      assert.equal(watermarkOf(again), wm);
      await putCustomer(t(), 'wm-1', { FirstName: 'Ada' });
      const next = await t().inject({
        method: 'POST',
        url: '/customer/?jsconfig=DateHandler:ISO8601',
        payload: { LastModifiedAfter: `/Date(${wm})/` },
      });
      assert.deepEqual(idsOf(next), ['wm-1']);
      assert.match(String(next.headers['x-sync-watermark']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(watermarkOf(next) > wm);
      assert.ok(watermarkOf(next) >= (await stampOf(t().store, 'wm-1')));
    });

    test('two customers changed in the same millisecond by two transactions are both seen', async () => {
      const start = watermarkOf(await t().inject('/customer/?Identifiers=nobody'));
      const ms = Math.max(Date.now(), start) + 2;
      const s1 = await writeTogether(t().store, ['ms-1'], { FirstName: 'one' }, ms);
      const seen1 = await t().inject(`/customer/?LastModifiedAfter=/Date(${start})/`);
      assert.deepEqual(idsOf(seen1), ['ms-1']);
      const s2 = await writeTogether(t().store, ['ms-2'], { FirstName: 'two' }, ms);
      assert.ok(s2 > s1, 'the second transaction gets a later stamp although the clock read the same millisecond');
      const seen2 = await t().inject(`/customer/?LastModifiedAfter=/Date(${watermarkOf(seen1)})/`);
      assert.deepEqual(idsOf(seen2), ['ms-2']);
    });

    test('a LastModifiedAfter ahead of everything comes back as the watermark', async () => {
      const future = Date.now() + 86_400_000;
      const res = await t().inject(`/customer/?LastModifiedAfter=/Date(${future})/`);
      assert.deepEqual(idsOf(res), []);
      assert.equal(watermarkOf(res), future);
    });
  },
  {},
  { pgbouncer: true },
);

describeEachBackend(
  'SearchCustomers: Take, Skip and the cursor',
  (t) => {
    const page = (since: number, extra: string) => t().inject(`/customer/?LastModifiedAfter=/Date(${since})/&${extra}`);

    test('Take pages; each page hands out a watermark that is safe on its own and a cursor', async () => {
      const base = await currentWatermark(t().store);
      const stamps: number[] = [];
      for (const id of ['pg-1', 'pg-2', 'pg-3', 'pg-4', 'pg-5']) stamps.push(await putCustomer(t(), id));
      const p1 = await page(base, 'Take=2');
      assert.deepEqual(idsOf(p1), ['pg-1', 'pg-2']);
      assert.equal(watermarkOf(p1), stamps[1], 'the next row has a later stamp, so pg-2 is fully covered');
      assert.ok(p1.headers['x-sync-cursor']);
      const p2 = await page(watermarkOf(p1), 'Take=2');
      assert.deepEqual(idsOf(p2), ['pg-3', 'pg-4']);
      const p2c = await page(base, `Take=2&Cursor=${String(p1.headers['x-sync-cursor'])}`);
      assert.deepEqual(idsOf(p2c), ['pg-3', 'pg-4'], 'the cursor continues after the page');
      assert.equal(watermarkOf(p2c), stamps[3]);
      const p3 = await page(base, `Take=2&Cursor=${String(p2c.headers['x-sync-cursor'])}`);
      assert.deepEqual(idsOf(p3), ['pg-5']);
      assert.equal(p3.headers['x-sync-cursor'], undefined, 'no cursor: the result is complete');
      assert.ok(watermarkOf(p3) >= stamps[4]!);

      const skipped = await page(base, 'Skip=1&Take=2');
      assert.deepEqual(idsOf(skipped), ['pg-2', 'pg-3']);
      assert.equal(watermarkOf(skipped), base, 'Skip does not advance the watermark');
      assert.deepEqual(idsOf(await page(base, 'Skip=3')), ['pg-4', 'pg-5']);
      assert.deepEqual(idsOf(await page(base, 'Skip=9')), []);
      const all = await page(base, 'Take=10');
      assert.deepEqual(idsOf(all), ['pg-1', 'pg-2', 'pg-3', 'pg-4', 'pg-5']);
      assert.equal(all.headers['x-sync-cursor'], undefined);
      const none = await page(base, 'Take=0');
      assert.deepEqual(idsOf(none), []);
      assert.equal(watermarkOf(none), base);
    });

    test('a page inside one transaction’s stamp never claims the stamp; the cursor walks it exactly once', async () => {
      const base = await currentWatermark(t().store);
      const ids = ['grp-a', 'grp-b', 'grp-c', 'grp-d', 'grp-e'];
      const s = await writeTogether(t().store, ids, { City: 'Gera' });
      for (const viaIdentifiers of [false, true]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        let since = base;
        for (let i = 0; i < 10; i++) {
          const filter = viaIdentifiers ? `Identifiers=${ids.join(',')}&` : '';
          const res = await page(since, `${filter}Take=2${cursor ? `&Cursor=${cursor}` : ''}`);
          seen.push(...idsOf(res));
          const wm = watermarkOf(res);
          cursor = res.headers['x-sync-cursor'] as string | undefined;
          if (cursor) assert.ok(wm < s, 'a cut inside the stamp group does not claim it');
          since = wm;
          if (!cursor) break;
        }
        assert.deepEqual(seen, ids, viaIdentifiers ? 'identifiers' : 'all');
        assert.ok(since >= s);
      }
    });

    test('a customer that changes while a client pages is not lost, with the cursor or with Skip', async () => {
      const base = await currentWatermark(t().store);
      for (const id of ['mv-1', 'mv-2', 'mv-3', 'mv-4', 'mv-5']) await putCustomer(t(), id);
      const p1 = await page(base, 'Take=2');
      assert.deepEqual(idsOf(p1), ['mv-1', 'mv-2']);
      await putCustomer(t(), 'mv-1', { FirstName: 'moved' });
      const p2 = await page(base, `Take=2&Cursor=${String(p1.headers['x-sync-cursor'])}`);
      assert.deepEqual(idsOf(p2), ['mv-3', 'mv-4']);
      const p3 = await page(base, `Take=2&Cursor=${String(p2.headers['x-sync-cursor'])}`);
      assert.deepEqual(idsOf(p3), ['mv-5', 'mv-1']);

      // Offset paging over a changing set skips a row (mv-3 here); Skip pages therefore hand back the
      // old watermark, and the next sync from it brings mv-3.
      const o1 = await page(base, 'Take=2');
      assert.deepEqual(idsOf(o1), ['mv-2', 'mv-3']);
      await putCustomer(t(), 'mv-2', { FirstName: 'moved' });
      const o2 = await page(base, 'Skip=2&Take=10');
      assert.ok(!idsOf(o2).includes('mv-3'));
      assert.ok(idsOf(await page(watermarkOf(o2), 'Take=100')).includes('mv-3'));
    });

    test('JSONP and camelCase answers carry the same headers', async () => {
      const res = await t().inject('/customer/?Take=1&callback=cb&jsconfig=EmitCamelCaseNames:true');
      assert.equal(res.statusCode, 200);
      assert.ok(res.headers['x-sync-watermark']);
      assert.match(res.body, /^cb\(\[\{"customerId":/);
      assert.ok(res.headers['x-sync-cursor'], 'more rows remain after one');
    });
  },
  {},
  { pgbouncer: true },
);
