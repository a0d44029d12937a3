import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig, sessionDatabaseUrl } from '../../src/config.js';
import { assertBuilt, runCli } from '../helpers/cli.js';

function assertRefused(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, String(err));
      assert.equal(err.variable, variable, err.message);
      assert.ok(err.message.startsWith(`${variable}: `), err.message);
      return true;
    },
    JSON.stringify(env),
  );
}

describe('configuration', () => {
  let dir: string;
  let cert: string;
  let key: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ordergate-config-'));
    cert = join(dir, 'cert.pem');
    key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      { stdio: 'ignore' },
    );
    writeFileSync(join(dir, 'junk.pem'), 'not a certificate');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, 'sqlite:./data/ordergate.sqlite');
    assert.equal(c.databaseDirectUrl, undefined);
    assert.equal(c.basePath, '');
    assert.equal(c.logLevel, 'info');
    assert.ok(c.workers >= 1);
    assert.equal(c.jsonCasing, 'pascal');
    assert.equal(c.dateFormat, 'wcf');
    assert.equal(c.bootstrapKey, undefined);
    assert.equal(c.trustProxy, false);
    assert.equal(c.tls, undefined);
    assert.equal(c.databaseReadUrl, undefined);
    assert.equal(c.rateLimitPerSecond, 1000);
    assert.equal(c.rateLimitBurst, 2000);
    assert.equal(c.allowApiKeyInQuery, false);
    assert.equal(c.authFailureLimit, 20);
    assert.equal(c.authFailureWindowSeconds, 60);
    assert.ok(Object.isFrozen(c));
  });

  test('good values are read; blank means unset', () => {
    const c = loadConfig({
      PORT: ' 9090 ',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/og',
      DATABASE_POOL_SIZE: '4',
      BASE_PATH: '/api/v1/',
      LOG_LEVEL: 'DEBUG',
      WORKERS: '3',
      JSON_CASING: 'camelCase',
      DATE_FORMAT: 'ISO',
      ORDERGATE_BOOTSTRAP_KEY: 'k'.repeat(40),
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_BURST: '',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ALLOW_APIKEY_IN_QUERY: 'yes',
      TLS_CERT: cert,
      TLS_KEY: key,
    });
    assert.deepEqual(
      [
        c.port,
        c.host,
        c.databaseUrl,
        c.databasePoolSize,
        c.basePath,
        c.logLevel,
        c.workers,
        c.jsonCasing,
        c.dateFormat,
        c.trustProxy,
        c.rateLimitPerSecond,
        c.rateLimitBurst,
        c.redisUrl,
        c.allowApiKeyInQuery,
      ],
      [
        9090,
        '0.0.0.0',
        'postgres://u:p@db:5432/og',
        4,
        '/api/v1',
        'debug',
        3,
        'camel',
        'iso8601',
        '10.0.0.0/8, 127.0.0.1',
        0,
        0,
        'redis://127.0.0.1:6379',
        true,
      ],
    );
    assert.equal(c.bootstrapKey, 'k'.repeat(40));
    assert.ok(c.tls?.cert.length && c.tls.key.length);
    assert.equal(loadConfig({ HOST: '[::1]' }).host, '::1');
    assert.equal(loadConfig({ HOST: 'db.internal' }).host, 'db.internal');
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(
      loadConfig({ TRUST_PROXY: 'loopback,fe80::/10 , 192.168.0.0/255.255.0.0,::1' }).trustProxy,
      'loopback, fe80::/10, 192.168.0.0/255.255.0.0, ::1',
    );
    assert.equal(loadConfig({ BASE_PATH: '/' }).basePath, '');
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).databaseUrl, 'sqlite::memory:');
    assert.equal(loadConfig({ PORT: '   ' }).port, 8080);
    const auth = loadConfig({ AUTH_FAILURE_LIMIT: ' 5 ', AUTH_FAILURE_WINDOW_SECONDS: '300' });
    assert.deepEqual([auth.authFailureLimit, auth.authFailureWindowSeconds], [5, 300]);
    const authEdges = loadConfig({ AUTH_FAILURE_LIMIT: '0', AUTH_FAILURE_WINDOW_SECONDS: '1' });
    assert.deepEqual([authEdges.authFailureLimit, authEdges.authFailureWindowSeconds], [0, 1]);
    const authMax = loadConfig({ AUTH_FAILURE_LIMIT: '1000000', AUTH_FAILURE_WINDOW_SECONDS: '86400' });
    assert.deepEqual([authMax.authFailureLimit, authMax.authFailureWindowSeconds], [1_000_000, 86_400]);
    const authBlank = loadConfig({ AUTH_FAILURE_LIMIT: '', AUTH_FAILURE_WINDOW_SECONDS: '  ' });
    assert.deepEqual([authBlank.authFailureLimit, authBlank.authFailureWindowSeconds], [20, 60]);
  });

  test('every bad value is refused with a message naming its variable', () => {
    const bad: [string, string[]][] = [
      ['PORT', ['abc', '-1', '65536', '80.5', '0x50']],
      ['HOST', ['local host', 'http://x', 'a/b', '-x']],
      ['DATABASE_URL', ['mysql://x', 'sqlite:', 'postgres://', './file.sqlite']],
      ['DATABASE_POOL_SIZE', ['0', 'ten', '1001']],
      ['BASE_PATH', ['api', '/a b', '/a?x', '//']],
      ['LOG_LEVEL', ['loud', 'verbose']],
      ['WORKERS', ['0', 'many', '257', '-2']],
      ['JSON_CASING', ['snake', 'kebab']],
      ['DATE_FORMAT', ['unix', 'rfc1123']],
      ['ORDERGATE_BOOTSTRAP_KEY', ['short', `${'k'.repeat(20)} ${'k'.repeat(20)}`, 'k'.repeat(201)]],
      [
        'TRUST_PROXY',
        ['maybe', 'proxy.example.com', '10.0.0.0/33', '999.1.1.1', '::1/129', '10.0.0.1/8/1', '10.0.0.0/255.0.0', ',', 'loopback,'],
      ],
      ['RATE_LIMIT_PER_SECOND', ['-1', 'fast', '1.5']],
      ['RATE_LIMIT_BURST', ['-1', 'big']],
      ['REDIS_URL', ['localhost:6379', 'http://redis']],
      ['ALLOW_APIKEY_IN_QUERY', ['maybe', '2']],
      ['AUTH_FAILURE_LIMIT', ['many', '-1', '1000001', '2.5', '0x10', '1e3']],
      ['AUTH_FAILURE_WINDOW_SECONDS', ['minute', '-60', '0', '86401', '60s', '1.5']],
    ];
    for (const [variable, values] of bad) for (const value of values) assertRefused({ [variable]: value }, variable);
  });

  test('TLS_CERT and TLS_KEY: both or neither, readable, and a usable pair', () => {
    assertRefused({ TLS_CERT: cert }, 'TLS_KEY');
    assertRefused({ TLS_KEY: key }, 'TLS_CERT');
    assertRefused({ TLS_CERT: join(dir, 'missing.pem'), TLS_KEY: key }, 'TLS_CERT');
    assertRefused({ TLS_CERT: cert, TLS_KEY: join(dir, 'missing.pem') }, 'TLS_KEY');
    assertRefused({ TLS_CERT: join(dir, 'junk.pem'), TLS_KEY: key }, 'TLS_CERT');
    assertRefused({ TLS_CERT: cert, TLS_KEY: join(dir, 'junk.pem') }, 'TLS_CERT');
  });

  test('a password in a bad DATABASE_URL is not repeated in the message', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://user:s3cret@host/db' }),
      (err: Error) => !err.message.includes('s3cret'),
    );
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://db/og', DATABASE_READ_URL: 'mysql://user:s3cret@host/db' }),
      (err: Error) => !err.message.includes('s3cret'),
    );
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://db/og', DATABASE_DIRECT_URL: 'mysql://user:s3cret@host/db' }),
      (err: Error) => !err.message.includes('s3cret'),
    );
  });

  test('DATABASE_READ_URL: a PostgreSQL URL next to a PostgreSQL DATABASE_URL; blank means unset', () => {
    const primary = 'postgres://u:p@db:5432/og';
    assert.equal(
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: ' postgresql://u:p@replica:5432/og ' }).databaseReadUrl,
      'postgresql://u:p@replica:5432/og',
    );
    assert.equal(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: ' ' }).databaseReadUrl, undefined);
    for (const value of ['replica:5432', 'sqlite:./r.sqlite', 'postgres://', 'http://replica'])
      assertRefused({ DATABASE_URL: primary, DATABASE_READ_URL: value }, 'DATABASE_READ_URL');
    // A SQLite file has no replica.
    assertRefused({ DATABASE_READ_URL: 'postgres://replica/og' }, 'DATABASE_READ_URL');
  });

  test('DATABASE_DIRECT_URL: a PostgreSQL URL beside a PostgreSQL DATABASE_URL; what needs a session uses it, else DATABASE_URL', () => {
    const pooled = 'postgres://og@pgbouncer:6432/og';
    const direct = 'postgres://og@db:5432/og';
    const c = loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: ` ${direct} ` });
    assert.deepEqual([c.databaseUrl, c.databaseDirectUrl, sessionDatabaseUrl(c)], [pooled, direct, direct]);
    const alone = loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: '' });
    assert.deepEqual([alone.databaseDirectUrl, sessionDatabaseUrl(alone)], [undefined, pooled]);
    for (const value of ['sqlite:x.sqlite', 'mysql://db/og', 'postgres://'])
      assertRefused({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: value }, 'DATABASE_DIRECT_URL');
    assertRefused({ DATABASE_URL: 'sqlite:x.sqlite', DATABASE_DIRECT_URL: direct }, 'DATABASE_DIRECT_URL');
  });

  test('DATABASE_PREPARED_STATEMENTS: on by default, off beside a DATABASE_DIRECT_URL (a pooler), either way when set', () => {
    const pooled = 'postgres://og@pgbouncer:6432/og';
    const direct = 'postgres://og@db:5432/og';
    assert.equal(loadConfig({ DATABASE_URL: direct }).databasePreparedStatements, true);
    assert.equal(loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct }).databasePreparedStatements, false);
    assert.equal(
      loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, DATABASE_PREPARED_STATEMENTS: 'true' }).databasePreparedStatements,
      true,
    );
    assert.equal(loadConfig({ DATABASE_URL: direct, DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements, false);
    assertRefused({ DATABASE_URL: direct, DATABASE_PREPARED_STATEMENTS: 'sometimes' }, 'DATABASE_PREPARED_STATEMENTS');
  });

  test('`ordergate serve` with a bad PORT exits non-zero and names PORT on stderr', async () => {
    assertBuilt();
    const res = await runCli(['serve'], { PORT: 'eighty', DATABASE_URL: `sqlite:${join(dir, 'never.sqlite')}` });
    assert.equal(res.code, 78);
    assert.match(res.stderr, /^ordergate: configuration error: PORT: expected a whole number, got 'eighty'$/m);
    assert.equal(res.stdout, '');
  });

  test('`ordergate serve` with a bad AUTH_FAILURE_LIMIT or AUTH_FAILURE_WINDOW_SECONDS exits non-zero and names the variable', async () => {
    assertBuilt();
    const db = `sqlite:${join(dir, 'never.sqlite')}`;
    const limit = await runCli(['serve'], { AUTH_FAILURE_LIMIT: '-3', DATABASE_URL: db });
    assert.equal(limit.code, 78);
    assert.match(limit.stderr, /^ordergate: configuration error: AUTH_FAILURE_LIMIT: expected a whole number, got '-3'$/m);
    assert.equal(limit.stdout, '');
    const window = await runCli(['serve'], { AUTH_FAILURE_WINDOW_SECONDS: '0', DATABASE_URL: db });
    assert.equal(window.code, 78);
    assert.match(window.stderr, /^ordergate: configuration error: AUTH_FAILURE_WINDOW_SECONDS: must be between 1 and 86400, got 0$/m);
    assert.equal(window.stdout, '');
  });
});
