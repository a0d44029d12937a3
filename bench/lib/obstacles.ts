/**
 * What the profiles say stands in the way of each target (details and measurements in
 * docs/performance.md). BENCHMARKS.md lists the entry of every target a run misses.
 */
export const OBSTACLES: Readonly<Record<string, string>> = {
  'search-get':
    'Fastify with the service hooks alone (the floor row) costs about 0.6 of the yardstick; the search adds one precompiled SQL ' +
    'statement (watermark and rows together), the kernel loopback send and the JSON writer: the whole request costs several times the yardstick.',
  'search-post': 'As search GET, plus parsing the JSON body.',
  'cf-read': 'As search GET: the framework floor plus the SQL of the read (customer check and values) and the typed values of the JSON writer.',
  confirm:
    'Durable commits: every group of confirmations waits for the disk. On this machine a one-row FULL commit took about 13 ms while other work ran; ' +
    'the rate follows the commit time and the group size.',
  p99: 'Queueing behind 10 connections at 100–200 µs of CPU per read; for writes, the disk commit time of each group commit.',
  sync: 'Reading each 1,000-row chunk into JS objects (about half the CPU) and JSON.stringify per customer (about 11 %).',
  'sync-lookups': 'Each 1,000-row chunk is read synchronously by better-sqlite3; a lookup can wait behind one chunk and one 64 KB batch.',
  'pg-search-get': 'One round trip to PostgreSQL per request through the pg pool, with PostgreSQL itself on the same two cores; the socket writes dominate the profile.',
  'idle-rss':
    'About 42 MB of every process is the node binary itself; a whole-table sync leaves ~20 MB in the main malloc heap and the write thread ' +
    '(a second V8 isolate) leaves V8 pages behind after it stops. Smaller semi-spaces, MALLOC_ARENA_MAX=2 and a fixed mmap threshold were measured and do not bring it under 120 MB.',
};
