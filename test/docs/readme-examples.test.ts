import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allOperations } from '../../src/operations.js';
import { ROOT } from '../helpers/cli.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';

interface CurlExample {
  readonly line: string;
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  readonly comment: string;
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

/** The `curl` examples of the README's API section. */
function readmeExamples(): CurlExample[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\nH="Authorization: Bearer \$KEY".*?\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has the curl block');
  const examples: CurlExample[] = [];
  let heading = '';
  const lines = block.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n]!;
    if (line.startsWith('# ')) heading = line;
    if (!line.startsWith('curl ')) continue;
    // A body over several lines: the example goes on until its single quotes are closed.
    while ((line.split("'").length - 1) % 2 === 1 && n + 1 < lines.length) line += `\n${lines[++n]}`;
    const { words: w, comment } = words(line);
    const at = (flag: string) => (w.indexOf(flag) >= 0 ? w[w.indexOf(flag) + 1] : undefined);
    const body = at('-d');
    const url = w.find((x) => x.startsWith('$B/'));
    assert.ok(url, `no $B/… in ${line}`);
    examples.push({ line, method: at('-X') ?? (body === undefined ? 'GET' : 'POST'), path: url.slice(2), body, comment, heading });
  }
  return examples;
}

const matches = (pattern: string, path: string): boolean =>
  new RegExp(`^${pattern.replace(/\{[A-Za-z]+\}/g, '[^/?]+')}(?:\\?.*)?$`).test(path);

describeEachBackend('README curl examples', (t) => {
  const examples = readmeExamples();

  test('every route of every operation has a curl example; operator routes are marked as such', () => {
    const ops = allOperations(t().store, t().app.writes);
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
