import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';

const KEY = 'og_https_test_key_0123456789abcdefghijklmnopqrstuvwxyz';

function get(
  port: number,
  ca: Buffer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, ca, servername: 'localhost', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with TLS_CERT and TLS_KEY', () => {
  let dir: string;
  let ca: Buffer;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ordergate-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    ca = readFileSync(join(dir, 'cert.pem'));
    server = await startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        TLS_CERT: join(dir, 'cert.pem'),
        TLS_KEY: join(dir, 'key.pem'),
        ORDERGATE_BOOTSTRAP_KEY: KEY,
      },
      {
        scheme: 'https',
        ready: async (port) =>
          get(port, ca, '/health/live').then(
            (r) => r.status === 200,
            () => false,
          ),
      },
    );
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('serves the API over TLS with the given certificate', async () => {
    const res = await get(server.port, ca, '/customer/', { authorization: `Bearer ${KEY}` });
    assert.equal(res.status, 200);
    assert.equal(res.body, '[]');
  });

  test('over TLS the answers carry Strict-Transport-Security (plain HTTP answers do not: test/reliability/security-headers)', async () => {
    for (const path of ['/health/live', '/customer/?Identifiers=x', '/no/such/page']) {
      const res = await get(server.port, ca, path, { authorization: `Bearer ${KEY}` });
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', path);
    }
  });

  test('plain HTTP on the TLS port gets no answer', async () => {
    await assert.rejects(fetch(`http://127.0.0.1:${server.port}/health/live`));
  });
});
