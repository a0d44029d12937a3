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

export interface InProcessOptions {
  /** A SQLite store's writes in this thread rather than a write thread (where this thread's inspector sees them). */
  readonly inlineWrites?: boolean;
  /** Settings over the defaults below, as environment variables. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startInProcessApp(db: BenchDatabase, keyName: string, options: InProcessOptions = {}): Promise<InProcessApp> {
  const opened = openStore(db.url);
  // Without the thread's URL the write door runs the commands inline (src/writes/write-door.ts).
  const store = options.inlineWrites && opened.writerThreadUrl ? { ...opened, writerThreadUrl: undefined } : opened;
  const writes = openWriteDoor(store, writeRegistry);
  const key = (await createKey(writes, keyName, 'all,admin')).key;
  await writes.close();
  const config = loadConfig({
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '0',
    NODE_ENV: 'production',
    ...options.env,
  });
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
