import { join } from 'node:path';
import pg from 'pg';
import { blockData, dataComment, readBlock, writeBlock } from './lib/blocks.js';
import { createDatabase, orderIds, seed, type BenchDatabase } from './lib/database.js';
import { n0, n2 } from './lib/format.js';
import { authHeaders } from './lib/load.js';
import { currentLoad, describeMachine, type Machine } from './lib/machine.js';
import { startService, type ServerProcess } from './lib/processes.js';
import { QUICK, ROOT } from './lib/settings.js';
import { customerId } from './scenarios/scenario.js';

// `npm run bench:scale-out`: four `ordergate serve` processes (WORKERS=1 each) on one PostgreSQL
// database through PgBouncer in transaction mode (127.0.0.1:6432, `.ci/pgbouncer`), a mixed load
// spread over them, and one instance SIGKILLed and restarted midway. Afterwards the database must
// hold every acknowledged write: each acknowledged confirmation with its data, no order confirmed
// twice, no duplicate customer for one ExternalCustomerId, each customer's last acknowledged value.
// BENCH_SCALE_OUT_SECONDS (default 24), BENCH_PGBOUNCER_PORT (default 6432), BENCH_WRITE=0.

const FILE = join(ROOT, 'BENCHMARKS.md');
const INSTANCES = 4;
const CLIENTS_PER_INSTANCE = 4;
const SECONDS = Number(process.env.BENCH_SCALE_OUT_SECONDS ?? (QUICK ? 6 : 24));
const CUSTOMERS = QUICK ? 2_000 : 20_000;
const ORDERS = QUICK ? 2_000 : 20_000;
const BOUNCER_PORT = process.env.BENCH_PGBOUNCER_PORT ?? '6432';
/** Customers each client writes (its own: one customer's writes are sequential, so "last" is defined). */
const OWN_CUSTOMERS = 50;
const KINDS = ['confirm', 'upsert', 'cf-write', 'search'] as const;
type Kind = (typeof KINDS)[number];
/** Mix of the load: out of 10 requests. */
const MIX: readonly Kind[] = ['confirm', 'confirm', 'confirm', 'upsert', 'upsert', 'upsert', 'cf-write', 'cf-write', 'search', 'search'];

const log = (line: string): void => void process.stdout.write(`${line}\n`);

interface Slot {
  server: ServerProcess;
  up: boolean;
  ok: number;
  failed: number;
}

interface Outcome {
  readonly status: number; // 0: no answer (connection error, timeout)
  readonly body?: unknown;
}

async function send(slot: Slot, method: string, path: string, body?: unknown): Promise<Outcome> {
  try {
    const res = await fetch(`${slot.server.url}${path}`, {
      method,
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      signal: AbortSignal.timeout(15_000),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0 };
  }
}

function confirmation(orderId: number): Record<string, unknown> {
  return {
    OrderId: orderId,
    ExternalCustomerId: `SCALE-${orderId}`,
    CustomerSalutation: 'Herr',
    CustomerFirstName: 'Jonas',
    CustomerLastName: `Scale ${orderId}`,
    CustomerPostalCode: '20095',
    CustomerCity: 'Hamburg',
    CustomerCountry: 'DE',
    CustomerStreet: 'Mönckebergstraße',
    CustomerStreetNumber: '7',
    CustomerEMail: `jonas.${orderId}@example.org`,
    CustomerIban: 'DE89370400440532013000',
    CustomerBic: 'COBADEFFXXX',
    AccountHolderName: 'Jonas Scale',
    PaymentMethod: 'Lastschrift',
    ShippingMethod: 'DHL',
    DeliveryDate: '/Date(1767225600000-0000)/',
    Payment: { Amount: 19.9, Name: 'Anzahlung', Type: 'PayPal' },
    Note: `scale-out ${orderId}`,
  };
}

interface Counts {
  sent: number;
  ok: number;
  failed: number;
}

interface ScaleOutData {
  readonly date: string;
  readonly machine: Machine;
  readonly seconds: number;
  readonly customers: number;
  readonly openOrders: number;
  readonly perInstance: ReadonlyArray<{ readonly reqPerSec: number; readonly failed: number }>;
  readonly totalReqPerSec: number;
  readonly perKind: Readonly<Record<Kind, Counts & { readonly reqPerSec: number }>>;
  readonly killedAt: number;
  readonly restartSeconds: number;
  /** Requests without a 2xx answer between the kill and the restarted instance's readiness. */
  readonly killWindowFailures: number;
  readonly killWindowByInstance: readonly number[];
  readonly retriedConfirmations: number;
  readonly retriedOk: number;
  readonly verify: Verification;
}

interface Verification {
  readonly ackedConfirmations: number;
  readonly confirmedMissing: number;
  readonly confirmedWrongData: number;
  readonly duplicateExternalIds: number;
  readonly confirmedWithoutRequest: number;
  readonly ackedUpsertCustomers: number;
  readonly upsertsLost: number;
  readonly ackedFieldCustomers: number;
  readonly fieldsLost: number;
}

const lostAny = (v: Verification): boolean =>
  v.confirmedMissing + v.confirmedWrongData + v.duplicateExternalIds + v.confirmedWithoutRequest + v.upsertsLost + v.fieldsLost > 0;

/** Checks the acknowledged writes against the database itself (a direct connection). */
async function verify(
  db: BenchDatabase,
  sentOrders: ReadonlySet<number>,
  ackedOrders: ReadonlySet<number>,
  upserts: ReadonlyMap<string, number>,
  fields: ReadonlyMap<string, number>,
): Promise<Verification> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const orders = await client.query<{ order_id: string; status: string; external_id: string | null; last_name: string | null }>(
      `select o.order_id, o.status, c.external_id, c.last_name from orders o left join customers c on c.customer_id = o.customer_id
        where o.status = 'Confirmed'`,
    );
    const confirmed = new Map(orders.rows.map((r) => [Number(r.order_id), r]));
    let confirmedMissing = 0;
    let confirmedWrongData = 0;
    for (const id of ackedOrders) {
      const row = confirmed.get(id);
      if (!row) confirmedMissing++;
      else if (row.external_id !== `SCALE-${id}` || row.last_name !== `Scale ${id}`) confirmedWrongData++;
    }
    const confirmedWithoutRequest = [...confirmed.keys()].filter((id) => !sentOrders.has(id)).length;
    const dup = await client.query<{ n: string }>(
      `select count(*) as n from (select external_id from customers where external_id is not null group by external_id having count(*) > 1) d`,
    );
    const cities = await client.query<{ customer_id: string; city: string | null }>(
      `select customer_id, city from customers where customer_id = any($1)`,
      [[...upserts.keys()]],
    );
    const city = new Map(cities.rows.map((r) => [r.customer_id, r.city]));
    let upsertsLost = 0;
    for (const [id, n] of upserts) {
      const stored = Number(/^Takt (\d+)$/.exec(city.get(id) ?? '')?.[1] ?? -1);
      if (stored < n) upsertsLost++; // a later attempt (acknowledged or not) may have written more
    }
    const values = await client.query<{ customer_id: string; value: string }>(
      `select customer_id, value from custom_field_values where number = 1 and customer_id = any($1)`,
      [[...fields.keys()]],
    );
    const value = new Map(values.rows.map((r) => [r.customer_id, r.value]));
    let fieldsLost = 0;
    for (const [id, n] of fields) {
      const raw = value.get(id) ?? '';
      const text = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
      const stored = Number(/^Wert (\d+)$/.exec(text)?.[1] ?? -1);
      if (stored < n) fieldsLost++;
    }
    return {
      ackedConfirmations: ackedOrders.size,
      confirmedMissing,
      confirmedWrongData,
      duplicateExternalIds: Number(dup.rows[0]?.n ?? 0),
      confirmedWithoutRequest,
      ackedUpsertCustomers: upserts.size,
      upsertsLost,
      ackedFieldCustomers: fields.size,
      fieldsLost,
    };
  } finally {
    await client.end();
  }
}

async function run(db: BenchDatabase, machine: Machine): Promise<ScaleOutData> {
  log(`seeding ${n0(CUSTOMERS)} customers and ${n0(ORDERS)} open orders`);
  await seed(db, CUSTOMERS, ORDERS, 0);
  const open = await orderIds(db, 'Open');
  const bouncer = new URL(db.url);
  bouncer.port = BOUNCER_PORT;
  const start = () => startService({ databaseUrl: bouncer.toString(), workers: 1, env: { DATABASE_DIRECT_URL: db.url } });
  const slots: Slot[] = [];
  for (let i = 0; i < INSTANCES; i++) slots.push({ server: await start(), up: true, ok: 0, failed: 0 });
  try {
    const def = await send(slots[0]!, 'PUT', '/customfields/1', {
      Label: 'Scale-out',
      FieldType: 'Text',
      IsReadOnly: false,
      AllowedValues: null,
      Sort: 0,
    });
    if (def.status >= 300) throw new Error(`defining custom field 1: HTTP ${def.status} ${JSON.stringify(def.body)}`);

    const perKind = Object.fromEntries(KINDS.map((k) => [k, { sent: 0, ok: 0, failed: 0 }])) as Record<Kind, Counts>;
    const sentOrders = new Set<number>();
    const ackedOrders = new Set<number>();
    const unacked: number[] = [];
    const upserts = new Map<string, number>();
    const fields = new Map<string, number>();
    let killWindow = false;
    const killWindowByInstance = new Array<number>(INSTANCES).fill(0);
    let running = true;

    const client = async (c: number): Promise<void> => {
      const own = Array.from({ length: OWN_CUSTOMERS }, (_, i) => customerId(1 + c * OWN_CUSTOMERS + i));
      let counter = 0;
      const home = c % INSTANCES;
      let step = c;
      while (running) {
        // A client stays with its instance; while that one is down it goes to the next one up.
        let slotIndex = home;
        for (let k = 0; k < INSTANCES && !slots[slotIndex]!.up; k++) slotIndex = (slotIndex + 1) % INSTANCES;
        const slot = slots[slotIndex]!;
        if (!slot.up) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        let kind = MIX[step++ % MIX.length]!;
        if (kind === 'confirm' && open.length === 0) kind = 'search';
        counter++;
        const who = own[counter % own.length]!;
        let answer: Outcome;
        let orderId = 0;
        if (kind === 'confirm') {
          orderId = open.shift()!;
          sentOrders.add(orderId);
          answer = await send(slot, 'POST', `/orders/${orderId}/confirm`, confirmation(orderId));
        } else if (kind === 'upsert') {
          answer = await send(slot, 'PUT', `/customer/${who}`, { City: `Takt ${counter}`, LastName: 'Scale', Country: 'DE' });
        } else if (kind === 'cf-write') {
          answer = await send(slot, 'PUT', `/customer/${who}/customfields/1`, { Value: `Wert ${counter}` });
        } else {
          answer = await send(slot, 'GET', `/customer/?Identifiers=${customerId(1 + ((counter * 7919 + c) % CUSTOMERS))}`);
        }
        const ok = answer.status >= 200 && answer.status < 300;
        perKind[kind].sent++;
        if (ok) {
          perKind[kind].ok++;
          slot.ok++;
          if (kind === 'confirm') ackedOrders.add(orderId);
          else if (kind === 'upsert') upserts.set(who, counter);
          else if (kind === 'cf-write') fields.set(who, counter);
        } else {
          perKind[kind].failed++;
          slot.failed++;
          if (killWindow) killWindowByInstance[slotIndex]!++;
          if (kind === 'confirm') unacked.push(orderId);
          // No answer (status 0): the instance is gone; the client moves on to its next request.
          if (answer.status !== 0 && !killWindow) {
            process.stderr.write(
              `${kind} on instance ${slotIndex + 1}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}\n`,
            );
          }
        }
      }
    };

    log(`load: ${INSTANCES} instances × ${CLIENTS_PER_INSTANCE} clients for ${SECONDS} s; instance 4 is SIGKILLed at ${SECONDS / 2} s`);
    const started = performance.now();
    const clients = Array.from({ length: INSTANCES * CLIENTS_PER_INSTANCE }, (_, c) => client(c));
    await new Promise((r) => setTimeout(r, (SECONDS / 2) * 1000));
    const victim = INSTANCES - 1;
    const killedAt = (performance.now() - started) / 1000;
    killWindow = true;
    slots[victim]!.up = false;
    process.kill(slots[victim]!.server.pid, 'SIGKILL');
    const restartStarted = performance.now();
    slots[victim]!.server = await start();
    const restartSeconds = (performance.now() - restartStarted) / 1000;
    slots[victim]!.up = true;
    killWindow = false;
    log(`instance ${victim + 1} killed at ${n2(killedAt)} s, ready again after ${n2(restartSeconds)} s`);
    const remaining = SECONDS * 1000 - (performance.now() - started);
    if (remaining > 0) await new Promise((r) => setTimeout(r, remaining));
    running = false;
    await Promise.all(clients);
    const elapsed = (performance.now() - started) / 1000;

    // Unacknowledged confirmations are sent once more, as a shop would retry: a retry of the same
    // data answers the first confirmation's answer, or confirms now; never a second customer.
    let retriedOk = 0;
    for (const id of unacked) {
      const answer = await send(slots[0]!, 'POST', `/orders/${id}/confirm`, confirmation(id));
      if (answer.status === 200) {
        retriedOk++;
        ackedOrders.add(id);
      }
    }

    const v = await verify(db, sentOrders, ackedOrders, upserts, fields);
    const total = slots.reduce((s, x) => s + x.ok, 0);
    return {
      date: new Date().toISOString(),
      machine: { ...machine, loadAtEnd: currentLoad() },
      seconds: elapsed,
      customers: CUSTOMERS,
      openOrders: ORDERS,
      perInstance: slots.map((s) => ({ reqPerSec: s.ok / elapsed, failed: s.failed })),
      totalReqPerSec: total / elapsed,
      perKind: Object.fromEntries(KINDS.map((k) => [k, { ...perKind[k], reqPerSec: perKind[k].ok / elapsed }])) as ScaleOutData['perKind'],
      killedAt,
      restartSeconds,
      killWindowFailures: killWindowByInstance.reduce((a, b) => a + b, 0),
      killWindowByInstance,
      retriedConfirmations: unacked.length,
      retriedOk,
      verify: v,
    };
  } finally {
    await Promise.all(slots.map((s) => s.server.stop()));
  }
}

function render(d: ScaleOutData, previous: ScaleOutData | undefined): string {
  const m = d.machine;
  const v = d.verify;
  const rows = d.perInstance.map(
    (p, i) =>
      `| ${i + 1}${i === d.perInstance.length - 1 ? ' (killed, restarted)' : ''} | ${n0(p.reqPerSec)} | ${n0(p.failed)} | ${n0(d.killWindowByInstance[i])} |`,
  );
  const kinds = KINDS.map(
    (k) => `| ${k} | ${n0(d.perKind[k].sent)} | ${n0(d.perKind[k].ok)} | ${n0(d.perKind[k].failed)} | ${n0(d.perKind[k].reqPerSec)} |`,
  );
  return `## Many instances (\`npm run bench:scale-out\`)

Run on ${d.date.slice(0, 16).replace('T', ' ')} UTC: ${m.cores} × ${m.cpuModel}, ${m.memoryGb} GB, node ${m.node}, Linux ${m.kernel};
load average ${n2(m.loadAtStart)} at the start, ${n2(m.loadAtEnd ?? NaN)} at the end. Command: \`npm run bench:scale-out\`.
${INSTANCES} \`ordergate serve\` processes (\`WORKERS=1\` each) on one fresh PostgreSQL database
(${n0(d.customers)} customers, ${n0(d.openOrders)} open orders, seeded with \`seed\`), \`DATABASE_URL\`
through PgBouncer in transaction mode, \`DATABASE_DIRECT_URL\` direct. ${INSTANCES * CLIENTS_PER_INSTANCE} clients
(${CLIENTS_PER_INSTANCE} per instance, one request at a time; a request without an answer is not retried, and
while an instance is down its clients send to the next one) for ${n0(d.seconds)} s, mixing confirmations of distinct open orders (each with its own
ExternalCustomerId), customer upserts (\`PUT /customer/{id}\`, a counter in City), custom-field writes
and id searches. Instance ${INSTANCES} was SIGKILLed after ${n2(d.killedAt)} s and restarted at once:
ready again after ${n2(d.restartSeconds)} s. Everything runs on this one machine (PostgreSQL, PgBouncer,
four instances and the clients), so the figures are a floor, not a capacity.

| instance | 2xx req/s | requests without 2xx | of them in the kill window |
| --- | ---: | ---: | ---: |
${rows.join('\n')}
| total | ${n0(d.totalReqPerSec)} | ${n0(d.perInstance.reduce((s, p) => s + p.failed, 0))} | ${n0(d.killWindowFailures)} |

| kind | sent | 2xx | without 2xx | 2xx req/s |
| --- | ---: | ---: | ---: | ---: |
${kinds.join('\n')}

Unacknowledged confirmations sent again afterwards (same data): ${n0(d.retriedConfirmations)}, ${n0(d.retriedOk)} answered 200.
Verified on the database afterwards: ${n0(v.ackedConfirmations)} acknowledged confirmations (${n0(d.perKind.confirm.ok)} during the load, ${n0(d.retriedOk)} on retry) — ${v.confirmedMissing} not Confirmed,
${v.confirmedWrongData} with other data; ${v.confirmedWithoutRequest} orders confirmed that no request named;
${v.duplicateExternalIds} ExternalCustomerIds with more than one customer; ${n0(v.ackedUpsertCustomers)} customers upserted —
${v.upsertsLost} without their last acknowledged value (or a later one); ${n0(v.ackedFieldCustomers)} customers' custom field
written — ${v.fieldsLost} without their last acknowledged value. **${lostAny(v) ? 'WRITES LOST OR DUPLICATED' : 'No acknowledged write lost, no duplicate confirmation.'}**
${previous ? `\nPrevious run: ${n0(previous.totalReqPerSec)} req/s total, restart ${n2(previous.restartSeconds)} s.\n` : ''}
${dataComment(d)}`;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  log(`ordergate scale-out run; load average ${machine.loadAtStart.toFixed(2)}`);
  const db = await createDatabase('postgres', 'scaleout');
  let data: ScaleOutData;
  try {
    data = await run(db, machine);
  } finally {
    await db.drop();
  }
  const text = render(data, blockData<ScaleOutData>(readBlock(FILE, 'scale-out')));
  if (QUICK || process.env.BENCH_WRITE === '0') log(`\n${text}`);
  else {
    writeBlock(FILE, 'scale-out', text);
    log(`\n${text}\n\nwrote the scale-out section of ${FILE}`);
  }
  if (lostAny(data.verify)) process.exitCode = 1;
}

await main();
