import { budgetSentence } from './memory-budget-report.js';
import type { RowData } from './targets.js';

/** Durable writes, as the profiles of confirmations and custom field writes found them. */
const DURABLE =
  "Durable commits (synchronous=FULL): the write thread is busy most of the time, about half of it in COMMIT (the log's flush, and SQLite's " +
  'automatic checkpoints). Timed inside the write thread (2026-11-25): 4.2–5 confirmations per group, 0.78–0.93 ms per transaction, of it ' +
  '0.41–0.51 ms in COMMIT; a one-page FULL commit takes 0.14 ms on this disk and every further page about 0.013 ms. Under 10 connections a ' +
  'group holds at most 10 writes, so the rate follows the commit time and what other work leaves of the cores (4,704/s on a quiet machine, ' +
  '2,591/s in a busy run of the same day). At 10^6 orders with the text indexes (2026-11-28, a slower disk: a one-page FULL commit ' +
  '0.4–0.5 ms, each further page about 0.02 ms) COMMIT took 3.4 ms per transaction, 45–50 % of the write thread: the log receives 17 ' +
  "pages per confirmation, spread over 26 b-trees (the events 4.5 with their indexes, the order's row 2.6, the orders' five indexes 3.2, " +
  "the text indexes and their words rows 4.7, the customer's four b-trees 1.8). Without automatic checkpoints the rate was the same.";

/** Writes on PostgreSQL (`what`: one confirmation, one custom field write). */
const pgWrites = (what: string): string =>
  `PostgreSQL on the same two cores spends about 0.6 times as much CPU per ${what} as the service (statements prepared once per connection). ` +
  "Sampled from pg_stat_activity (bench/compare.ts --pg-waits), the busy backends wait for the service's next statement 75 % of the time " +
  "and for a lock (the sync clock's row) 5 %: a batch of five confirmations is about 15 round trips on shared cores, and fewer changed the rate by less than the noise (2,035 confirmations/s " +
  "on a quiet machine, 1,610/s in a busy run; over PostgreSQL's Unix socket instead of TCP one run measured +5 %).";

/** A read against the limit server (bench/limit-server.ts): the same statement and answer without the framework. */
const LIMIT =
  'The limit server does the same database work and writes the same bytes; the difference is the request path around them. ' +
  "In-process profiles of the search by id (--cpu-prof over app.inject) put it in Fastify's own pipeline (routing, the six hooks " +
  'of the plugins, the reply and its onSend chain, a child logger per request), the per-request bookkeeping (metrics: route options ' +
  "and the labelled histogram; the API load counter; helmet's six headers and the request id), and Kysely's connection provider " +
  'around the one driver call; no single function above 2 % of the samples. Each layer is about a microsecond; together they are the ' +
  'floor row, which the reads carry on top of their own work.';

/** Memory every worker holds from its start (its size is in the run's budget, added by measuredObstacle). */
const BINARY = "The mapped node binary (41–45 MB) is shared between workers but counted in each one's RSS.";

/**
 * What the profiles say stands in the way of each target (details and measurements in
 * docs/performance.md). BENCHMARKS.md lists the entry of every target a run misses.
 */
export const OBSTACLES: Readonly<Record<string, string>> = {
  floor:
    "Fastify with the service's hooks against a bare node:http server answering a constant, in loads taking turns. Bare Fastify alone " +
    'measured 1.20–1.21 × the yardstick in the same turns, and bare Fastify setting only the headers every answer carries (the request ' +
    'id and the six security headers, one hook) 1.05–1.36 ×, the service 1.50–1.56 × (bench/floor-turns.ts, 2026-11-28): Fastify and ' +
    "the contract's headers take the target's margin before any of the service's own layers (logger, API load, wire hook, draining, " +
    'metrics, router options: together 0.3–0.5 × the yardstick, each about a microsecond on a quiet machine, bench/fastify-layers.ts).',
  'search-get':
    'The floor row is Fastify with the service hooks alone; the search adds authentication, one precompiled SQL statement (watermark and rows ' +
    "together) and the JSON writer. By `perf record` of the server (bench/perf-split.ts; 67 µs against the floor's 20 µs) the extra 47 µs are " +
    "V8 and Node's C++ (+20 µs: interpreter, inline caches, strings, promises of the request path), the kernel (+13 µs: SQLite's read " +
    'transaction takes two fcntl locks and an fstat per request, besides the larger send), JIT code (+6 µs), SQLite itself (+5.5 µs).',
  'search-post': 'As search GET, plus parsing the JSON body.',
  'search-get-limit': LIMIT,
  'cf-read-limit': LIMIT,
  'order-get-limit': LIMIT,
  'search-50-limit': `${LIMIT} With 50 ids the statement itself is most of both servers' CPU, so the ratio is closer to 1.`,
  'pg-search-limit': `${LIMIT} On PostgreSQL both wait for the same round trip; the pool and the driver's parsing are the same on both.`,
  'pg-search-db-limit':
    "Both servers run the same statement text, prepared once per connection; PostgreSQL's own CPU differs by the transactions and " +
    'round trips around it (the service reads on its reader pool; its key check and health reads are cached) and by what else runs on the cores.',
  'cf-read':
    'As search GET: the floor plus the SQL of the read (customer check and values, about a quarter of the samples) and the JSON writer with its dates.',
  'search-50':
    'SQLite executing `customer_id in (…50) or external_id in (…50)` (a MULTI-INDEX OR: each id an index probe, then the row by rowid) and ' +
    'handing over 49 rows of 16 values: two thirds of the samples in the driver call. Alone in a loop (better-sqlite3, 10^5 customers, ' +
    '2026-11-25) the statement takes 106–129 µs with rows as arrays, as the service reads them (188–192 µs as objects), 75–77 µs returning ' +
    'only the ids: 4 × the floor (64–80 µs) is about what SQLite needs to find the 49 rows.',
  'pg-vs-sqlite':
    'One round trip to PostgreSQL per request through the pg pool, with PostgreSQL itself on the same two cores; the socket writes dominate the profile ' +
    '(39 % of the samples in `writev`).',
  confirm: DURABLE,
  'cf-write': `${DURABLE} Per write the write thread runs four statements (savepoints only when a write of the batch failed) and reads the answer back.`,
  'pg-confirm': pgWrites('confirmation'),
  'pg-cf-write': pgWrites('custom field write'),
  p99:
    'Queueing behind 10 connections: each read waits for the ones before it, so p99 follows CPU per request (highest for the search by 50 ids, ' +
    'whose statement alone takes 106–129 µs) and what other work leaves of the two cores. The limit server, with the same statement and ' +
    'nothing around it, queues as long: its p99 for the same read is beside the figure.',
  rss:
    `${BINARY} glibc kept the pages the write thread freed (its connection, statements and isolate) in that thread's arena, which outlives ` +
    'the thread, and gives back free pages only from the top of a heap: an idle worker now asks for them with malloc_trim(0) after its idle ' +
    'collection and when the write thread goes away (src/freed-memory.ts; thread arenas 24.5 → 6.3 MB after confirmations, a sync and ' +
    'searches, 2026-11-28). What stays is in use: a whole-table sync leaves ~19 MB allocated in the main malloc heap (malloc_info: 26 MB ' +
    'from the system, 5.4 MB of it free). Smaller semi-spaces, MALLOC_ARENA_MAX=2 and a fixed mmap threshold were measured and did not ' +
    'lower the figure after the load.',
  'rss-start':
    `${BINARY} The main isolate's new space (two semi-spaces) has grown to 32 MB during start-up. ` +
    "Kysely's migrator no longer sorts with localeCompare (ICU's collation data, about 6 MB of the binary's pages: a direct start 87–94 → " +
    "80–86 MB); `--max-semi-space-size=2` lowered a start by 8 MB more but promotes the feeds' chunks again (docs/performance.md), so it is not set. " +
    "The start-up's collection is now followed by malloc_trim(0) as well (src/freed-memory.ts): three direct starts each, RSS 1.5 s after " +
    'ready, PostgreSQL 80–82 → 77–78 MB (thread arenas 5.6–6.6 → 2.2–2.5 MB), SQLite 76–78 → 76 MB (2026-11-28, after this run).',
  sync: 'Reading each 1,000-row chunk into JS objects (about half the CPU) and JSON.stringify per customer (about 11 %).',
  'sync-lookups': 'Each 1,000-row chunk is read synchronously by better-sqlite3; a lookup can wait behind one chunk and one 64 KB batch.',
  'orders-feed':
    'Per order (about 6 µs of server CPU, 1.4 KB of JSON): the driver reading the 250-row chunks as arrays, the kept masked confirmation ' +
    'text spliced into each order (orders.confirmation_shown), the socket writes. On two shared cores the rate follows what the load ' +
    'generator and other work leave of them.',
  'orders-feed-rss':
    "V8 garbage in the old generation until the next full collection: whatever holds a chunk's rows or texts (about 1.4 MB of kept " +
    'confirmation texts) through two scavenges gets them promoted. Two such holders were found (rows V8 allocated in the old generation, ' +
    'the number-to-string cache: docs/performance.md); reading the stored form too doubled the bytes per chunk.',
  'order-get-cpu':
    'An order is a bigger answer than a customer: the stored confirmation is parsed and shown with every field (about 3 µs), and its JSON ' +
    "is 1.4 KB with up to seven dates (about 3 µs more than a customer's); the lookup itself costs less than the search by id.",
  'create-lines':
    `${DURABLE} A creation with five lines commits as a confirmation does and costs less server CPU per request than one in the same run ` +
    '(0.61 × on disk, 0.57 × on tmpfs, 2026-11-27); its statements one by one put 4.8 ms of 5.5 ms in the COMMIT, the lines and totals below the noise.',
  'pg-create-lines': `${pgWrites('creation')} A creation with five lines is one more INSERT (the lines, one statement) than one without.`,
  'order-get-lines-cpu':
    'The content is kept as JSON text with the order (orders.content_shown) and spliced into the answer: five lines add about 1.4 KB to the row ' +
    'read and to the answer written, nothing is computed per read.',
  'orders-feed-lines':
    "As the order feed: the lines' content is kept text, spliced; per order it cost 1.04 × the plain feed's server CPU in the same run (2026-11-27).",
  'orders-feed-lines-rss':
    "As the order feed's RSS: a chunk of orders with five lines holds about 3 KB of kept text per order; chunks of 1,000 were promoted " +
    '(+57 MB over 200,000 orders), chunks of 250 die young (+4 MB).',
};

/** The RSS targets' obstacles also say what this run's memory budget measured (the worst worker's parts). */
export function measuredObstacle(id: string, rows: readonly RowData[]): string | undefined {
  if (id === 'rss') return budgetSentence(rows, 'idle');
  if (id === 'rss-start') return budgetSentence(rows, 'start');
  return undefined;
}
