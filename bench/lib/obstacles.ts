/**
 * What the profiles say stands in the way of each target (details and measurements in
 * docs/performance.md). BENCHMARKS.md lists the entry of every target a run misses.
 */
export const OBSTACLES: Readonly<Record<string, string>> = {
  'search-get':
    'Fastify with the service hooks alone (the floor row) costs about 0.6 of the yardstick; a search adds two SQL statements ' +
    '(watermark, rows), Kysely building both per request and SQLite file locking per statement. Precompiled SQL measured −23 % CPU per request.',
  'search-post': 'As search GET, plus parsing the JSON body.',
  'cf-read': 'As search GET: the framework floor plus the SQL of the read (customer check and values) and the date replacer of the JSON writer.',
  confirm:
    'Durable commits: every group of confirmations waits for the disk. On this machine a one-row FULL commit took about 13 ms while other work ran; ' +
    'the rate follows the commit time and the group size.',
  p99: 'Queueing behind 10 connections at about 200 µs of CPU per read; for writes, the disk commit time (custom field writes are one commit each).',
  sync: 'Reading each 1,000-row chunk into JS objects (about half the CPU) and JSON.stringify per customer (about 11 %).',
  'sync-lookups': 'Each 1,000-row chunk is read synchronously by better-sqlite3; a lookup can wait behind one chunk and one 64 KB batch.',
  'pg-search-get': 'Two round trips to PostgreSQL per request (watermark, rows), with PostgreSQL on the same two cores; the socket writes dominate the profile.',
  'idle-rss':
    'The V8 heap grows only ~10 MB under load; the rest is memory the young generation and glibc malloc arenas keep. ' +
    'MALLOC_ARENA_MAX=2 or --max-semi-space-size=4 lower it (measured, not applied).',
};
