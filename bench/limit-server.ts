import * as crypto from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BetterSqlite3 } from '../src/store/sqlite/sqlite-driver.js';
import pg from 'pg';
import { SYNC_COLUMNS } from '../src/customers/customer.columns.js';
import { identifierSearchSql } from '../src/customers/customer.statements.js';
import { fieldsSql } from '../src/customfields/customfield.statements.js';
import { showOrderSql } from '../src/orders/order.statements.js';
import { postgresSql } from '../src/store/postgres/postgres-sql.js';
import { sqliteSql } from '../src/store/sqlite/sqlite-sql.js';

// The stack's limit, as `npm run bench` measures it beside the service: plain node:http and the
// database driver answering the reads the service answers — a search by identifiers (GET and POST),
// a customer's custom fields, an order by id with its records — with the least a correct answer needs for the bench
// key: the key checked against a map of hashes read at start, one prepared statement (the service's
// own text where it has one, so the database does the same work), and JSON written as text. No
// framework, no logging, no metrics, no content negotiation, only the headers the answer needs.
// DATABASE_URL says which database (`sqlite:<file>` or a PostgreSQL URL); PORT where to listen.

type Row = readonly unknown[];
type Done = (err: Error | undefined, rows: readonly Row[]) => void;

/** One prepared statement, run with its parameters; rows as arrays. */
type Statement = (params: readonly unknown[], done: Done) => void;

interface Backend {
  prepare(name: string, text: string): Statement;
  /** Each key's SHA-256 hex hash → its permissions (keys not revoked). */
  keys(): Promise<Map<string, string>>;
}

function sqliteBackend(file: string): Backend {
  const db = new BetterSqlite3(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return {
    prepare(_name, text) {
      const stmt = db.prepare(text).raw(true);
      return (params, done) => {
        let rows: Row[];
        try {
          rows = stmt.all(...params) as Row[];
        } catch (err) {
          return done(err as Error, []);
        }
        done(undefined, rows);
      };
    },
    keys: async () =>
      new Map(db.prepare('select key_hash, permissions from api_keys where revoked_at is null').raw(true).all() as [string, string][]),
  };
}

function postgresBackend(url: string): Backend {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    prepare(name, text) {
      let n = 0;
      const numbered = text.replace(/\?/g, () => `$${++n}`);
      return (params, done) => {
        pool.query({ name, text: numbered, values: params as unknown[], rowMode: 'array' }).then(
          (r) => done(undefined, r.rows as Row[]),
          (err: Error) => done(err, []),
        );
      };
    },
    async keys() {
      const r = await pool.query({ text: 'select key_hash, permissions from api_keys where revoked_at is null', rowMode: 'array' });
      return new Map(r.rows as [string, string][]);
    },
  };
}

const url = process.env.DATABASE_URL ?? '';
const onSqlite = url.startsWith('sqlite:');
const backend = onSqlite ? sqliteBackend(url.slice('sqlite:'.length)) : postgresBackend(url);
const keys = await backend.keys();

const wcfDate = (ms: unknown): string => (ms === null ? 'null' : `"\\/Date(${String(ms)}-0000)\\/"`);
const text = (v: unknown): string => (v === null ? 'null' : JSON.stringify(v));

const CUSTOMER_FIELDS = [
  'CustomerId',
  ...SYNC_COLUMNS.slice(1, -1).map((c) => c.replace(/(^|_)([a-z0-9])/g, (_m, _u, ch: string) => ch.toUpperCase())),
];
const customerJson = (row: Row): string => `{${CUSTOMER_FIELDS.map((f, i) => `"${f}":${text(row[i])}`).join(',')}}`;
// customer_id, the 13 data columns, modified_at, then the watermark.
const WATERMARK = SYNC_COLUMNS.length;

const searchStatements = new Map<number, Statement>();
function searchStatement(n: number): Statement {
  let s = searchStatements.get(n);
  if (!s) searchStatements.set(n, (s = backend.prepare(`limit_search_${n}`, identifierSearchSql(`${n}:0`))));
  return s;
}
const fields = backend.prepare('limit_fields', fieldsSql('all'));
// The service's own statement: the order's row and its records (payments, refunds, shipments, returns) aggregated.
const order = backend.prepare('limit_order', showOrderSql(onSqlite ? sqliteSql : postgresSql));

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const failed = (res: ServerResponse) => (err: Error) =>
  send(res, 500, JSON.stringify({ ResponseStatus: { ErrorCode: 'Exception', Message: err.message } }));

function search(res: ServerResponse, ids: readonly string[]): void {
  if (ids.length === 0 || ids.length > 1000 || ids.some((id) => typeof id !== 'string' || id === ''))
    return send(res, 400, '{"ResponseStatus":{"ErrorCode":"NotEmpty","Message":"Identifiers"}}');
  searchStatement(ids.length)([...ids, ...ids], (err, rows) => {
    if (err) return failed(res)(err);
    const found = rows[0]?.[0] === null ? [] : rows;
    send(res, 200, `[${found.map(customerJson).join(',')}]`, { 'x-sync-watermark': `/Date(${String(rows[0]?.[WATERMARK])}-0000)/` });
  });
}

// version, created_at, number, label, field_type, is_read_only, allowed_values, sort, value
function customFields(res: ServerResponse, customerId: string): void {
  fields([customerId], (err, rows) => {
    if (err) return failed(res)(err);
    if (rows.length === 0) return send(res, 404, '{"ResponseStatus":{"ErrorCode":"NotFound","Message":"no such customer"}}');
    const items: string[] = [];
    for (const r of rows) {
      if (r[2] === null) continue;
      const value = r[8] === null ? 'null' : r[4] === 'Date' ? wcfDate(r[8]) : String(r[8]);
      items.push(
        `{"Number":${String(r[2])},"Label":${text(r[3])},"IsReadOnly":${r[5] === 1 || r[5] === true},"FieldType":${text(r[4])},"Value":${value},"AllowedValues":${r[6] === null ? 'null' : String(r[6])},"Sort":${String(r[7])}}`,
      );
    }
    send(res, 200, `[${items.join(',')}]`, { etag: `"${Number(rows[0]![1]).toString(36)}-${Number(rows[0]![0])}"` });
  });
}

// An amount (exact decimal text) as the service writes it: a JSON number.
const amount = (v: unknown): string => JSON.stringify(Number(v));
const lines = (rows: readonly unknown[][]): string =>
  `[${rows
    .filter((r) => r[8] !== null)
    .map((r) => `{"LineNumber":${String(r[8])},"Quantity":${String(r[9])}}`)
    .join(',')}]`;

/**
 * The records' fields of an order from their aggregate (rows of kind, id, amount, t1, t2, t3, at1,
 * at2, line_number, quantity; a shipment or a return one row per line), as the service writes them.
 */
function recordsText(orderId: string, aggregate: unknown): string {
  const rows = (typeof aggregate === 'string' ? JSON.parse(aggregate) : (aggregate ?? [])) as unknown[][];
  const byKind: Record<string, string[]> = { S: [], P: [], R: [], T: [] };
  for (let i = 0; i < rows.length;) {
    const r = rows[i]!;
    let end = i + 1;
    while (end < rows.length && rows[end]![0] === r[0] && rows[end]![1] === r[1]) end++;
    const own = rows.slice(i, end);
    const head = `${String(r[1])},"OrderId":${orderId}`;
    if (r[0] === 'P')
      byKind.P!.push(
        `{"PaymentId":${head},"Amount":${amount(r[2])},"Type":${text(r[3])},"Name":${text(r[4])},"ReferenceNumber":${text(r[5])},"Date":${wcfDate(r[6])}}`,
      );
    else if (r[0] === 'R')
      byKind.R!.push(
        `{"RefundId":${head},"Amount":${amount(r[2])},"Reason":${text(r[3])},"ReferenceNumber":${text(r[5])},"Date":${wcfDate(r[6])}}`,
      );
    else if (r[0] === 'S')
      byKind.S!.push(
        `{"ShipmentId":${head},"Lines":${lines(own)},"Carrier":${text(r[3])},"TrackingNumber":${text(r[4])},"TrackingUrl":${text(r[5])},"ShippedAt":${wcfDate(r[6])}}`,
      );
    else byKind.T!.push(`{"ReturnId":${head},"Lines":${lines(own)},"Reason":${text(r[3])},"ReceivedAt":${wcfDate(r[6])}}`);
    i = end;
  }
  return `"Shipments":[${byKind.S!.join(',')}],"Payments":[${byKind.P!.join(',')}],"Refunds":[${byKind.R!.join(',')}],"Returns":[${byKind.T!.join(',')}]`;
}

// order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation,
// confirmation_shown, currency, prices_include_tax, content_shown, payment_status, fulfillment_status, paid, refunded, records
function orderById(res: ServerResponse, id: string): void {
  if (!/^\d{1,15}$/.test(id)) return send(res, 400, '{"ResponseStatus":{"ErrorCode":"TypeMismatch","Message":"OrderId"}}');
  order([Number(id)], (err, rows) => {
    if (err) return failed(res)(err);
    const o = rows[0];
    if (!o) return send(res, 404, '{"ResponseStatus":{"ErrorCode":"NotFound","Message":"no such order"}}');
    // The masked confirmation is kept as text by the service; an order without it is not the limit's to render.
    if (o[9] !== null && o[10] === null) return failed(res)(new Error('confirmation without its shown text'));
    const orderId = String(o[0]);
    send(
      res,
      200,
      `{"OrderId":${orderId},"OrderNumber":${text(o[1])},"Status":${text(o[2])},"CustomerId":${text(o[4])},"CreatedAt":${wcfDate(o[5])},` +
        `"ConfirmedAt":${wcfDate(o[6])},"CancelledAt":${wcfDate(o[7])},"Note":${text(o[3])},"Confirmation":${o[10] === null ? 'null' : String(o[10])}` +
        // The content as the service keeps it (JSON text of Currency … Totals), spliced in; the seeded orders all have it.
        `${o[13] === null ? '' : `,${String(o[13]).slice(1, -1)}`},"FulfillmentStatus":${text(o[15])},"PaymentStatus":${text(o[14])},` +
        `${recordsText(orderId, o[18])},"Paid":${amount(o[16])},"Refunded":${amount(o[17])}}`,
    );
  });
}

// The service's key hash: one-shot `crypto.hash` where Node has it (≥ 20.12).
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const hashKey = (key: string): string => (oneShot ? oneShot('sha256', key, 'hex') : crypto.createHash('sha256').update(key).digest('hex'));

function authorized(req: IncomingMessage): boolean {
  const header = req.headers.authorization;
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const permissions = keys.get(hashKey(header.slice(7)));
  return permissions !== undefined && permissions.split(',').includes('all');
}

const CUSTOM_FIELDS = /^\/customer\/([^/]+)\/customfields\/?$/;
const ORDER = /^\/orders\/([^/]+)\/?$/;

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const [path = '', query = ''] = (req.url ?? '').split('?', 2);
  if (path === '/health/ready' || path === '/health/live') return send(res, 200, '{"Status":"Ready"}');
  if (!authorized(req)) return send(res, 401, '{"ResponseStatus":{"ErrorCode":"Unauthorized","Message":"Unauthorized"}}');
  if (path === '/customer/' || path === '/customer') {
    if (req.method === 'GET') return search(res, (new URLSearchParams(query).get('Identifiers') ?? '').split(','));
    let parsed: { Identifiers?: string[] } | undefined;
    try {
      parsed = JSON.parse(body) as { Identifiers?: string[] };
    } catch {
      return send(res, 400, '{"ResponseStatus":{"ErrorCode":"SerializationException","Message":"body"}}');
    }
    return search(res, Array.isArray(parsed?.Identifiers) ? parsed.Identifiers : []);
  }
  const fieldsOf = req.method === 'GET' ? CUSTOM_FIELDS.exec(path) : null;
  if (fieldsOf) return customFields(res, decodeURIComponent(fieldsOf[1]!));
  const orderOf = req.method === 'GET' ? ORDER.exec(path) : null;
  if (orderOf) return orderById(res, orderOf[1]!);
  send(res, 404, '{"ResponseStatus":{"ErrorCode":"NotFound","Message":"Handler for Request not found"}}');
}

const server = createServer((req, res) => {
  if (req.method === 'GET') return route(req, res, '');
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => route(req, res, body));
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
