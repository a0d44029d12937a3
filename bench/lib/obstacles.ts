/** Durable writes, as the profiles of confirmations and custom field writes found them. */
const DURABLE =
  'Durable commits: every group of writes waits for the disk. On this machine a one-row FULL commit took about 13 ms while other work ran; ' +
  'the rate follows the commit time and the group size.';

/** Writes on PostgreSQL (`what`: one confirmation, one custom field write). */
const pgWrites = (what: string): string =>
  `PostgreSQL on the same two cores; each ${what} is several round trips and every customer-writing transaction takes the one sync_clock row lock until commit.`;

/** Memory every worker holds from its start. */
const BINARY = 'About 42 MB of every process is the mapped node binary itself (shared between workers, counted in each one\'s RSS).';

/**
 * What the profiles say stands in the way of each target (details and measurements in
 * docs/performance.md). BENCHMARKS.md lists the entry of every target a run misses.
 */
export const OBSTACLES: Readonly<Record<string, string>> = {
  floor:
    'Fastify with the service\'s hooks (request id, headers, logger, metrics) against a bare node:http server answering a constant: ' +
    'the floor measured 31–43 µs of CPU per request where the yardstick took 20–26 µs.',
  'search-get':
    'The floor row is Fastify with the service hooks alone; the search adds one precompiled SQL statement (watermark and rows together), ' +
    'the kernel loopback send and the JSON writer. In the profile the loopback send (`writev`) is about a quarter of the samples and the SQLite call about a fifth.',
  'search-post': 'As search GET, plus parsing the JSON body.',
  'cf-read': 'As search GET: the floor plus the SQL of the read (customer check and values, about a quarter of the samples) and the JSON writer with its dates.',
  'search-50':
    'SQLite executing `customer_id in (…50) or external_id in (…50)` and decoding 50 rows of 17 columns: about a third of the samples in the driver call; ' +
    'JSON out and the JSON body in about 3 % each.',
  'pg-vs-sqlite':
    'One round trip to PostgreSQL per request through the pg pool, with PostgreSQL itself on the same two cores; the socket writes dominate the profile ' +
    '(39 % of the samples in `writev`).',
  confirm: DURABLE,
  'cf-write': `${DURABLE} Per write the write thread runs four statements and two savepoint commands and reads the answer back.`,
  'pg-confirm': pgWrites('confirmation'),
  'pg-cf-write': pgWrites('custom field write'),
  p99: 'Queueing behind 10 connections: each read waits for the ones before it, so p99 follows CPU per request (highest for the search by 50 ids) and what other work leaves of the two cores.',
  rss:
    `${BINARY} A whole-table sync leaves ~20 MB in the main malloc heap and the write thread (a second V8 isolate) leaves V8 pages behind after it stops. ` +
    'Smaller semi-spaces, MALLOC_ARENA_MAX=2 and a fixed mmap threshold were measured and did not lower the figure after the load.',
  'rss-start': `${BINARY} A worker started at 92–110 MB in the profiles; smaller semi-spaces (\`--max-semi-space-size=4\`) only brought that to 93–99 MB.`,
  sync: 'Reading each 1,000-row chunk into JS objects (about half the CPU) and JSON.stringify per customer (about 11 %).',
  'sync-lookups': 'Each 1,000-row chunk is read synchronously by better-sqlite3; a lookup can wait behind one chunk and one 64 KB batch.',
  'orders-feed':
    'Per order (about 7 µs of server CPU, 1.4 KB of JSON with a masked confirmation): JSON.stringify about a quarter, the driver reading the ' +
    '1,000-row chunks about a quarter, JSON.parse of the stored confirmation and the view about a sixth, the socket the rest. On two shared ' +
    'cores the rate follows what the load generator and other work leave of them.',
  'orders-feed-rss':
    'V8 garbage in the old generation: strings kept by the number-to-string cache used to grow it by about 20 MB per 10^6 orders ' +
    '(wire/dates.ts now writes the digits without it); anything else that outlives two young-generation collections does the same until the next full one.',
  'order-get-cpu':
    'An order is a bigger answer than a customer: the stored confirmation is parsed and shown with every field (about 3 µs), and its JSON ' +
    'is 1.4 KB with up to seven dates (about 3 µs more than a customer\'s); the lookup itself costs less than the search by id.',
};
