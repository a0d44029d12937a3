import { createTextSearchData } from './lib/text-search-data.js';
import type { Backend } from './lib/settings.js';

/**
 * Seeds the text search's data set and keeps it, so that bench/text-search-probe.ts and
 * bench/text-search-existing.ts can measure one data set many times:
 * `BENCH_DIR=<dir> node --import tsx bench/text-search-seed.ts <sqlite|postgres> [rows]` (run
 * `npm run build` first). Prints the DATABASE_URL of the kept data set and how many orders are confirmed.
 */
const backend = process.argv[2] as Backend | undefined;
if (backend !== 'sqlite' && backend !== 'postgres') throw new Error('usage: text-search-seed.ts <sqlite|postgres> [rows]');
const rows = Number(process.argv[3] ?? 1_000_000);
const data = await createTextSearchData(backend, rows);
console.log(`${data.db.url} rows ${data.rows} confirmed ${data.confirmed} seeded in ${data.seconds.toFixed(0)} s`);
