import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/index.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import { writeRegistry } from '../../src/write-registry.js';
import { openWriteDoor } from '../../src/writes/write-door.js';
import type { BenchDatabase } from './database.js';

/** The service's app in this process, as `serve` builds it, on a seeded database, with a key of `all,admin`. */
export interface InProcessApp {
  readonly app: FastifyInstance;
  readonly key: string;
  readonly close: () => Promise<void>;
}

export async function startInProcessApp(db: BenchDatabase, keyName: string): Promise<InProcessApp> {
  const store = openStore(db.url);
  const writes = openWriteDoor(store, writeRegistry);
  const key = (await createKey(writes, keyName, 'all,admin')).key;
  await writes.close();
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', NODE_ENV: 'production' });
  const app = await buildApp({ config, store });
  await app.ready();
  return {
    app,
    key,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}
