import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/root.js';
import { workedExampleRow } from './orders-doc-table.js';

const DOC = join(ROOT, 'docs/orders.md');

test("docs/orders.md's worked examples are what the calculator computes", () => {
  const section = readFileSync(DOC, 'utf8').split('## Money: lines, taxes and totals')[1] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && line.includes('| `{'));
  const examples = rows.map((row) => row.split(' | ')[0]?.slice(2));
  assert.deepEqual(examples, [
    '3 × 0.10 at 19 %',
    'three lines of 0.10 at 19 %',
    'mixed 19 % and 7 %, shipping',
    'a discount',
    'gross prices',
    'JPY',
    'KWD',
  ]);
  for (const row of rows) {
    const [, name = '', request = ''] = /^\| (.+?) \| `(\{.*?\})` \|/.exec(row) ?? [];
    assert.equal(workedExampleRow(name, JSON.parse(request)), row);
  }
});
