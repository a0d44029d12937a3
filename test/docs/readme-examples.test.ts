import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allOperations } from '../../src/operations.js';
import { ROOT } from '../helpers/cli.js';
import { seedCustomers } from '../../src/customers/customer.seed.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { bearer, createTestApp, describeEachBackend, json } from '../helpers/test-app.js';

interface CurlExample {
  readonly line: string;
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  /** Every `-H` value, as written (`$H`, `$J`, `If-Match: $ETAG`, …). */
  readonly headers: string[];
  readonly comment: string;
  /** What the example answers, as its comment (or the `#   →` line under it) says: `→ 200 […]`. */
  readonly expect: string | undefined;
  /** The `# …` line the example stands under. */
  readonly heading: string;
}

/** Splits a shell line into words (single and double quotes), stopping at a `#` comment. */
function words(line: string): { words: string[]; comment: string } {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === ' ' || line[i] === '\n') {
      i++;
      continue;
    }
    if (line[i] === '#') return { words: out, comment: line.slice(i + 1).trim() };
    let word = '';
    while (i < line.length && line[i] !== ' ' && line[i] !== '\n') {
      const q = line[i];
      if (q === "'" || q === '"') {
        const end = line.indexOf(q, i + 1);
        if (end < 0) throw new Error(`unclosed quote: ${line}`);
        word += line.slice(i + 1, end);
        i = end + 1;
      } else word += line[i++];
    }
    out.push(word);
  }
  return { words: out, comment: '' };
}

/** One line of the README's API block as the test replays it. */
type Step =
  | { readonly kind: 'seed'; readonly customers: number; readonly orders: number }
  | { readonly kind: 'etag'; readonly path: string }
  /** `NAME=$(curl … $B/path | sed -n 's/…\(…\)…/\1/p')`: a value of an answer (an id) later paths use as `$NAME`. */
  | { readonly kind: 'capture'; readonly name: string; readonly path: string; readonly pattern: RegExp }
  | { readonly kind: 'curl'; readonly example: CurlExample };

/** A sed basic regular expression as a JavaScript one: `\(` and `\)` group. */
const fromSed = (bre: string): RegExp => new RegExp(bre.replace(/\\([()])/g, '$1'));

/** The steps of the README's API section, in order: the seed line, ETag and id captures and `curl` examples. */
function readmeSteps(): Step[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\nH="Authorization: Bearer \$KEY".*?\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has the curl block');
  const steps: Step[] = [];
  let heading = '';
  const lines = block.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n]!;
    if (line.startsWith('# ') && !/^#\s+→/.test(line)) heading = line;
    if (line.startsWith('npx ordergate seed ')) {
      const { words: w } = words(line);
      const count = (flag: string) => (w.indexOf(flag) >= 0 ? Number(w[w.indexOf(flag) + 1]) : 0);
      steps.push({ kind: 'seed', customers: count('--customers'), orders: count('--orders') });
      continue;
    }
    const etag = /^ETAG=\$\(curl .*\$B(\/\S+)/.exec(line);
    if (etag) steps.push({ kind: 'etag', path: etag[1]! });
    const capture = /^([A-Z]+)=\$\(curl .*?\$B(\/\S+) \| sed -n 's\/(.*)\/\\1\/p'\)/.exec(line);
    if (capture) steps.push({ kind: 'capture', name: capture[1]!, path: capture[2]!, pattern: fromSed(capture[3]!) });
    if (!line.startsWith('curl ')) continue;
    // A body over several lines: the example goes on until its single quotes are closed.
    while ((line.split("'").length - 1) % 2 === 1 && n + 1 < lines.length) line += `\n${lines[++n]}`;
    const { words: w, comment } = words(line);
    const at = (flag: string) => (w.indexOf(flag) >= 0 ? w[w.indexOf(flag) + 1] : undefined);
    const body = at('-d');
    const url = w.find((x) => x.startsWith('$B/'));
    assert.ok(url, `no $B/… in ${line}`);
    const headers = w.flatMap((x, i) => (x === '-H' ? [w[i + 1]!] : []));
    const under = /^#\s+(→.*)$/.exec(lines[n + 1] ?? '')?.[1];
    const expect = under ?? (comment.includes('→') ? comment.slice(comment.indexOf('→')) : undefined);
    steps.push({ kind: 'curl', example: { line, method: at('-X') ?? (body === undefined ? 'GET' : 'POST'), path: url.slice(2), body, headers, comment, expect, heading } });
  }
  return steps;
}

/** The `curl` examples of the README's API section. */
const readmeExamples = (): CurlExample[] => readmeSteps().flatMap((s) => (s.kind === 'curl' ? [s.example] : []));

/** A README answer `[{"A":1,…}]` as a pattern: `…` stands for anything. */
const answerPattern = (text: string): RegExp => new RegExp(`^${text.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

const matches = (pattern: string, path: string): boolean =>
  new RegExp(`^${pattern.replace(/\{[A-Za-z]+\}/g, '[^/?]+')}(?:\\?.*)?$`).test(path);

describeEachBackend('README curl examples', (t, backend) => {
  test('run top to bottom on an empty store, every example answers as its comment says', async (ctx) => {
    const app = await createTestApp(backend);
    ctx.after(() => app.close());
    let etag = '';
    const vars: Record<string, () => string> = { $H: () => `Authorization: Bearer ${app.keys.admin}`, $J: () => 'Content-Type: application/json', $ETAG: () => etag };
    const expand = (h: string) => h.replace(/\$[A-Z]+/g, (v) => vars[v]?.() ?? v);
    let curls = 0;
    for (const step of readmeSteps()) {
      if (step.kind === 'seed') {
        await seedCustomers(app.app.writes, step.customers);
        await seedOrders(app.app.writes, step.orders);
        continue;
      }
      if (step.kind === 'etag') {
        etag = String((await app.inject(step.path)).headers.etag ?? '');
        assert.ok(etag, `no ETag from ${step.path}`);
        continue;
      }
      if (step.kind === 'capture') {
        const res = await app.inject(expand(step.path));
        const value = step.pattern.exec(res.body)?.[1];
        assert.ok(value, `${step.name}: nothing captured from ${step.path} → ${res.statusCode} ${res.body.slice(0, 300)}`);
        vars[`$${step.name}`] = () => value;
        continue;
      }
      const e = step.example;
      curls++;
      const headers = Object.fromEntries(e.headers.map(expand).map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]));
      const res = await app.inject({ method: e.method as 'GET', url: expand(e.path), headers, ...(e.body === undefined ? {} : { payload: e.body }) });
      const said = /→ (\d{3})(?:, (\d{3}) when [^{[]*)?(?: ([[{].*))?$/.exec(e.expect ?? '');
      if (!said) {
        assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${e.line}\n→ ${res.statusCode} ${res.body.slice(0, 300)}`);
        continue;
      }
      assert.ok([said[1], said[2]].includes(String(res.statusCode)), `${e.line}\n→ ${res.statusCode} ${res.body.slice(0, 300)}; the README says ${e.expect}`);
      if (said[3] !== undefined && res.statusCode === Number(said[1])) assert.match(res.body, answerPattern(said[3]), e.line);
    }
    assert.ok(curls >= 15, `${curls} examples ran`);
  });

  const examples = readmeExamples();

  test('every route of every operation has a curl example; operator routes are marked as such', () => {
    const ops = allOperations(t().store, t().app.writes, t().config);
    for (const op of ops) {
      for (const route of op.routes) {
        const hits = examples.filter((e) => e.method === route.method && matches(route.path, e.path));
        assert.ok(hits.length > 0, `no README example for ${route.method} ${route.path} (${op.name})`);
        if (op.permission === 'admin') {
          for (const e of hits) assert.ok(/operator/.test(e.comment) || /operator/.test(e.heading), `${op.name} needs admin, the example does not say so: ${e.line}`);
        }
      }
    }
  });

  test('the custom-field definition examples work as commented, with the permissions they state', async () => {
    const app = t();
    const find = (method: string, pattern: string): CurlExample => {
      const e = examples.find((x) => x.method === method && matches(pattern, x.path));
      assert.ok(e, `${method} ${pattern}`);
      return e;
    };
    const define = find('PUT', '/customfields/{Number}');
    const list = find('GET', '/customfields/');
    const remove = find('DELETE', '/customfields/{Number}');
    const send = (e: CurlExample, key: string) =>
      app.inject({ method: e.method as 'GET', url: e.path, headers: { ...bearer(key), ...(e.body ? { 'content-type': 'application/json' } : {}) }, ...(e.body ? { payload: e.body } : {}) });

    // Operator routes refuse a key without admin; listing needs only `all`.
    assert.equal((await send(define, app.keys.all)).statusCode, 403);
    assert.equal((await send(remove, app.keys.all)).statusCode, 403);
    assert.equal((await send(list, app.keys.adminOnly)).statusCode, 403);

    assert.equal((await send(define, app.keys.admin)).statusCode, 201);
    const listed = await send(list, app.keys.all);
    const expected = /→ (\d{3}) (.*)$/.exec(list.comment);
    assert.ok(expected, list.line);
    assert.equal(listed.statusCode, Number(expected[1]));
    assert.deepEqual(json(listed), JSON.parse(expected[2]!));

    // DELETE: 404 when not defined, 204 once it is, and gone from the list.
    const number = Number(/\/customfields\/(\d+)$/.exec(remove.path)?.[1]);
    assert.match(remove.comment, /→ 204, 404 when not defined/);
    assert.equal((await send(remove, app.keys.admin)).statusCode, 404);
    const defined = await app.inject({ method: 'PUT', url: `/customfields/${number}`, payload: { Label: 'Gone soon', FieldType: 'Text', Sort: 2 } });
    assert.equal(defined.statusCode, 201);
    const deleted = await send(remove, app.keys.admin);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    assert.deepEqual(json(await send(list, app.keys.all)).map((d: { Number: number }) => d.Number), [1]);
  });
});
