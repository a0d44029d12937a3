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
  'confirm-webhook':
    'Each confirmation makes two events (order.confirmed and the customer\'s), and each delivery costs about 190 µs of server CPU (599 against 215 µs per confirmation): a new TCP connection per attempt (so that the guard checks the address of every connection), the HTTP exchange, rendering and signing, and its share of a claim and a settle transaction through the same single writer, on the same two cores as the confirmations. Next: connections kept alive per endpoint, and a dispatcher that yields to the API\'s load.',
  'pg-search-get': 'One round trip to PostgreSQL per request through the pg pool, with PostgreSQL itself on the same two cores; the socket writes dominate the profile.',
  'idle-rss':
    'About 42 MB of every process is the node binary itself; a whole-table sync leaves ~20 MB in the main malloc heap and the write thread ' +
    '(a second V8 isolate) leaves V8 pages behind after it stops. Smaller semi-spaces, MALLOC_ARENA_MAX=2 and a fixed mmap threshold were measured and do not bring it under 120 MB.',
};
