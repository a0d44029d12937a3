import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);
let driver: typeof pg | undefined;

/**
 * node-postgres, loaded on first use: a command run on SQLite, or one that opens no store at all,
 * does not pay for loading the driver and its parsers.
 */
export function pgDriver(): typeof pg {
  return (driver ??= require('pg') as typeof pg);
}
