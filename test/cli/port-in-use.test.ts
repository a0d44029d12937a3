import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

describe('serve on a port in use', { skip: !BACKENDS.includes('sqlite') && 'BACKENDS has no sqlite' }, () => {
  let blocker: Server;
  let port: number;
  let database: TestDatabase;
  before(async () => {
    assertBuilt();
    database = await createTestDatabase('sqlite');
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    port = (blocker.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((r) => blocker.close(r));
    await database.drop();
  });

  for (const workers of ['1', '2']) {
    test(`names the port and PORT (exit 1, WORKERS=${workers})`, async () => {
      const r = await runCli(['serve'], { ...database.env, HOST: '127.0.0.1', PORT: String(port), WORKERS: workers }, 60_000);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`ordergate: port ${port} on 127\\.0\\.0\\.1 is in use \\(another ordergate or another server\\): stop it, or set PORT to a free port\\n`));
    });
  }
});
