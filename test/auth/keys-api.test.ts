import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PERMISSIONS } from '../../src/auth/index.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';

interface ApiKey {
  Id: string;
  Name: string;
  Permissions: string[];
  CreatedAt: string;
  RevokedAt: string | null;
  LastUsedAt: string | null;
  Key?: string;
}

interface Entry {
  KeyId: string;
  Action: string;
  ResourceType: string;
  ResourceIds: string[];
}

const WIRE_DATE = /^\/Date\(\d+-0000\)\/$/;
const msOf = (date: string): number => Number(/\d+/.exec(date)![0]);
const search = (t: TestApp, key: string) => t.inject({ url: '/customer/?Identifiers=none', headers: bearer(key) });

async function listed(t: TestApp): Promise<ApiKey[]> {
  const res = await t.inject('/keys');
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

async function auditAfter(t: TestApp, after: number): Promise<Entry[]> {
  const res = await t.inject(`/audit/?After=${after}`);
  assert.equal(res.statusCode, 200, res.body);
  return json<(Entry & { Sequence: number })[]>(res).map(({ KeyId, Action, ResourceType, ResourceIds }) => ({
    KeyId,
    Action,
    ResourceType,
    ResourceIds,
  }));
}

async function lastSequence(t: TestApp): Promise<number> {
  return json<{ Sequence: number }[]>(await t.inject('/audit/?Take=1000')).at(-1)?.Sequence ?? 0;
}

async function create(t: TestApp, name: string, permissions: string[]): Promise<ApiKey & { Key: string }> {
  const res = await t.inject({ method: 'POST', url: '/keys', payload: { Name: name, Permissions: permissions } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res);
}

/** Polls until `check` holds (a hang guard only). */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`never: ${what}`);
}

describeEachBackend('keys over HTTP', (t) => {
  const adminId = (): string => t().keys.admin.slice(0, 12);

  test('POST /keys answers 201 with the Key once; it works at once with its permissions; GET /keys lists it without the Key; audited', async () => {
    const from = await lastSequence(t());
    const created = await create(t(), 'erp-http', ['all', 'bank', 'all']);
    assert.deepEqual(Object.keys(created).sort(), ['CreatedAt', 'Id', 'Key', 'LastUsedAt', 'Name', 'Permissions', 'RevokedAt']);
    assert.match(created.Key, /^og_[A-Za-z0-9_-]{54}$/);
    assert.equal(created.Id, created.Key.slice(0, 12));
    assert.equal(created.Name, 'erp-http');
    assert.deepEqual(created.Permissions, ['all', 'bank']);
    assert.match(created.CreatedAt, WIRE_DATE);
    assert.equal(created.RevokedAt, null);
    assert.equal(created.LastUsedAt, null);

    assert.equal((await search(t(), created.Key)).statusCode, 200, 'works at once');
    assert.equal((await t().inject({ url: '/keys', headers: bearer(created.Key) })).statusCode, 403, 'no admin');

    const all = await listed(t());
    const row = all.find((k) => k.Id === created.Id);
    const { Key: _key, ...shown } = created;
    assert.deepEqual({ ...row, LastUsedAt: null }, shown);
    assert.ok(!JSON.stringify(all).includes(created.Key), 'the key is never shown again');
    for (const k of all) assert.equal(k.Key, undefined);
    assert.ok(all.some((k) => k.Id === adminId() && k.Permissions.join(',') === 'all,admin'));

    assert.deepEqual(await auditAfter(t(), from), [
      { KeyId: adminId(), Action: 'key.create', ResourceType: 'key', ResourceIds: [created.Id] },
    ]);
  });

  test('bad bodies answer 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ Permissions: ['all'] }, 'Name'],
      [{ Name: '', Permissions: ['all'] }, 'Name'],
      [{ Name: 'two words', Permissions: ['all'] }, 'Name'],
      [{ Name: 'x'.repeat(65), Permissions: ['all'] }, 'Name'],
      [{ Name: 'ok' }, 'Permissions'],
      [{ Name: 'ok', Permissions: [] }, 'Permissions'],
      [{ Name: 'ok', Permissions: ['all', 'root'] }, 'Permissions'],
      [{ Name: 'ok', Permissions: 'all' }, 'Permissions'],
    ];
    const before = (await listed(t())).length;
    for (const [payload, field] of cases) {
      const res = await t().inject({ method: 'POST', url: '/keys', payload: payload as object });
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      const status = json<{ ResponseStatus: { ErrorCode: string; Errors: { FieldName: string }[] } }>(res).ResponseStatus;
      assert.ok(
        status.Errors.length > 0 && status.Errors.every((e) => e.FieldName.split(/[.[]/)[0] === field),
        `${JSON.stringify(payload)}: ${res.body}`,
      );
    }
    assert.equal((await listed(t())).length, before, 'nothing was created');
  });

  test('a key without admin gets 403 on every key operation; nothing changes', async () => {
    const victim = await create(t(), 'victim-403', ['all']);
    const from = await lastSequence(t());
    for (const key of [t().keys.all, victim.Key]) {
      for (const req of [
        { method: 'GET' as const, url: '/keys' },
        { method: 'POST' as const, url: '/keys', payload: { Name: 'sneaky', Permissions: ['admin'] } },
        { method: 'POST' as const, url: `/keys/${victim.Id}/revoke` },
      ]) {
        const res = await t().inject({ ...req, headers: bearer(key) });
        assert.equal(res.statusCode, 403, `${req.method} ${req.url}: ${res.body}`);
        assert.equal(json(res).ResponseStatus.ErrorCode, 'Forbidden');
      }
    }
    assert.ok(!(await listed(t())).some((k) => k.Name === 'sneaky'));
    assert.equal((await listed(t())).find((k) => k.Id === victim.Id)?.RevokedAt, null);
    assert.deepEqual(await auditAfter(t(), from), []);
  });

  test('POST /keys/{Id}/revoke answers the key with RevokedAt, audited; the key is refused within a second; again answers it unchanged; unknown → 404', async () => {
    const victim = await create(t(), 'victim-revoke', ['all']);
    assert.equal((await search(t(), victim.Key)).statusCode, 200);
    const from = await lastSequence(t());
    const before = Date.now();
    const res = await t().inject({ method: 'POST', url: `/keys/${victim.Id}/revoke` });
    assert.equal(res.statusCode, 200, res.body);
    const revoked = json<ApiKey>(res);
    assert.equal(revoked.Id, victim.Id);
    assert.equal(revoked.Name, 'victim-revoke');
    assert.match(revoked.RevokedAt ?? '', WIRE_DATE);
    // RevokedAt is the instant from which every process refuses the key: shortly after the request.
    assert.ok(msOf(revoked.RevokedAt!) > before && msOf(revoked.RevokedAt!) <= Date.now() + 1000, revoked.RevokedAt!);
    assert.equal(revoked.Key, undefined);
    assert.deepEqual(await auditAfter(t(), from), [
      { KeyId: adminId(), Action: 'key.revoke', ResourceType: 'key', ResourceIds: [victim.Id] },
    ]);
    await eventually('the revoked key is refused', async () => (await search(t(), victim.Key)).statusCode === 401);
    assert.equal((await search(t(), victim.Key)).statusCode, 401);

    const again = await t().inject({ method: 'POST', url: `/keys/${victim.Id}/revoke` });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(json(again), revoked);
    assert.deepEqual(
      await auditAfter(t(), from),
      [{ KeyId: adminId(), Action: 'key.revoke', ResourceType: 'key', ResourceIds: [victim.Id] }],
      'recorded once',
    );

    const unknown = await t().inject({ method: 'POST', url: '/keys/og_nosuchkey/revoke' });
    assert.equal(unknown.statusCode, 404, unknown.body);
    assert.equal(json(unknown).ResponseStatus.ErrorCode, 'NotFound');
  });

  test('LastUsedAt: set once a key authenticates, not moved by every request', async () => {
    const user = await create(t(), 'last-used', ['all']);
    const lastUsed = async (): Promise<string | null> => (await listed(t())).find((k) => k.Id === user.Id)!.LastUsedAt;
    assert.equal(await lastUsed(), null);
    const before = Date.now();
    assert.equal((await search(t(), user.Key)).statusCode, 200);
    await eventually('LastUsedAt is written', async () => (await lastUsed()) !== null);
    const first = (await lastUsed())!;
    assert.match(first, WIRE_DATE);
    assert.ok(msOf(first) >= before - 5 && msOf(first) <= Date.now(), first);
    for (let i = 0; i < 5; i++) {
      await sleep(20);
      assert.equal((await search(t(), user.Key)).statusCode, 200);
    }
    await sleep(200);
    assert.equal(await lastUsed(), first, 'within the minute, later requests write nothing');
  });

  test('GET /keys/current answers the calling key, whatever its permissions, for every combination; never the key itself; no audit entry', async () => {
    const combinations = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((bits) => PERMISSIONS.filter((_, i) => bits & (1 << i)));
    const from = await lastSequence(t());
    for (const permissions of combinations) {
      const created = await create(t(), `current-${permissions.join('-')}`, permissions);
      const res = await t().inject({ url: '/keys/current', headers: bearer(created.Key) });
      assert.equal(res.statusCode, 200, `${permissions.join(',')}: ${res.body}`);
      const current = json<Record<string, unknown>>(res);
      assert.deepEqual(Object.keys(current), ['Id', 'Name', 'Permissions', 'CreatedAt', 'LastUsedAt']);
      assert.deepEqual(current, {
        Id: created.Id,
        Name: created.Name,
        Permissions: permissions,
        CreatedAt: created.CreatedAt,
        LastUsedAt: current.LastUsedAt,
      });
      assert.ok(current.LastUsedAt === null || WIRE_DATE.test(current.LastUsedAt as string), String(current.LastUsedAt));
      assert.ok(!res.body.includes(created.Key.slice(12)), 'the key itself is never shown');
    }
    // Each key is answered with its own row: the admin key sees itself, not the others.
    const own = json<ApiKey>(await t().inject('/keys/current'));
    assert.equal(own.Id, adminId());
    assert.deepEqual(own.Permissions, ['all', 'admin']);
    const entries = await auditAfter(t(), from);
    assert.equal(entries.length, combinations.length);
    assert.ok(
      entries.every((e) => e.Action === 'key.create'),
      'reading the current key records nothing',
    );
  });

  test('GET /keys/current without a key, with an unknown or a revoked key answers 401 in the ResponseStatus shape', async () => {
    const victim = await create(t(), 'current-revoked', ['all']);
    assert.equal((await t().inject({ url: '/keys/current', headers: bearer(victim.Key) })).statusCode, 200);
    assert.equal((await t().inject({ method: 'POST', url: `/keys/${victim.Id}/revoke` })).statusCode, 200);
    await eventually('the revoked key is refused', async () => (await search(t(), victim.Key)).statusCode === 401);
    const unknown = `og_${'x'.repeat(54)}`;
    for (const [what, headers] of [
      ['no key', { authorization: undefined }],
      ['an unknown key', bearer(unknown)],
      ['a revoked key', bearer(victim.Key)],
    ] as const) {
      const res = await t().inject({ url: '/keys/current', headers });
      assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
      assert.match(String(res.headers['www-authenticate']), /Bearer realm=/, what);
      assert.equal(json(res).ResponseStatus.ErrorCode, 'Unauthorized', what);
      assert.ok(!res.body.includes('current-revoked'), `${what}: nothing of the key is shown`);
    }
  });

  test('revoking the last unrevoked key with admin answers 409 LastAdminKey and leaves it working', async () => {
    const admins = (await listed(t())).filter((k) => k.RevokedAt === null && k.Permissions.includes('admin') && k.Id !== adminId());
    assert.ok(admins.length > 0);
    for (const k of admins) assert.equal((await t().inject({ method: 'POST', url: `/keys/${k.Id}/revoke` })).statusCode, 200);
    const from = await lastSequence(t());
    const res = await t().inject({ method: 'POST', url: `/keys/${adminId()}/revoke` });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'LastAdminKey');
    assert.equal((await listed(t())).find((k) => k.Id === adminId())?.RevokedAt, null);
    assert.deepEqual(await auditAfter(t(), from), []);
    // A key with admin created now may be revoked again, and then the other is the last.
    const second = await create(t(), 'second-admin', ['admin']);
    const revokedFirst = await t().inject({ method: 'POST', url: `/keys/${adminId()}/revoke`, headers: bearer(second.Key) });
    assert.equal(revokedFirst.statusCode, 200, revokedFirst.body);
    const last = await t().inject({ method: 'POST', url: `/keys/${second.Id}/revoke`, headers: bearer(second.Key) });
    assert.equal(last.statusCode, 409, last.body);
  });
});
