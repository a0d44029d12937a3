import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { renderSnapshot, SNAPSHOT_DIR, uncoveredFunctions } from '../../scripts/sql-snapshot/render-snapshot.js';
import { exportedFunctions } from '../../scripts/sql-snapshot/snapshot-calls.js';
import { ROOT as root } from '../helpers/root.js';

const REFRESH = 'Run `npm run sql:snapshot` and commit the change to queries/ with the code that made it.';

/** The first lines where two texts part, a few of each side, for a reviewer to recognise. */
function firstDifference(checkedIn: string, now: string): string {
  const a = checkedIn.split('\n');
  const b = now.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (lines: string[], sign: string) =>
    lines
      .slice(i, i + 3)
      .map((l) => `    ${sign} ${l}`)
      .join('\n') || `    ${sign} (end of file)`;
  return `from line ${i + 1}:\n  checked in:\n${show(a, '-')}\n  now:\n${show(b, '+')}`;
}

test('the checked-in SQL snapshot is the SQL the repositories run now', async () => {
  const files = await renderSnapshot();
  const problems: string[] = [];
  for (const file of files) {
    const path = join(root, file.path);
    if (!existsSync(path)) problems.push(`${file.path} is missing.`);
    else {
      const checkedIn = readFileSync(path, 'utf8');
      if (checkedIn !== file.text) problems.push(`${file.path} differs ${firstDifference(checkedIn, file.text)}`);
    }
  }
  const rendered = new Set(files.map((f) => f.path));
  const stale = readdirSync(join(root, SNAPSHOT_DIR), { recursive: true })
    .map((f) => `${SNAPSHOT_DIR}/${String(f).split('\\').join('/')}`)
    .filter((f) => f.endsWith('.sql') && !rendered.has(f));
  for (const f of stale) problems.push(`${f} is not written by the snapshot any more.`);
  if (problems.length > 0) assert.fail(`${problems.join('\n\n')}\n\n${REFRESH}`);
});

test('every function a repository exports is called by the snapshot', () => {
  assert.deepEqual(
    uncoveredFunctions(),
    [],
    'add a call for each to scripts/sql-snapshot/ (or, for a query builder, list it in `builders`)',
  );
});

test('the coverage guard finds exported functions, plain and as members of an exported object', () => {
  const module = { repo: { find() {}, limit: 3 }, helper() {}, NAME: 'x' };
  assert.deepEqual(exportedFunctions(module), ['helper', 'repo.find']);
});
