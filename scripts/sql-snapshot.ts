/**
 * Writes the SQL snapshot (queries/<backend>/<repository>.sql): every statement each repository
 * runs, compiled by each backend, so that a change of SQL shows in review. `npm test` fails while
 * the checked-in files differ from what this writes (test/store/sql-snapshot.test.ts).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSnapshot, SNAPSHOT_DIR, uncoveredFunctions } from './sql-snapshot/render-snapshot.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const uncovered = uncoveredFunctions();
if (uncovered.length > 0) {
  console.error(`sql snapshot: no call in scripts/sql-snapshot/ for\n  ${uncovered.join('\n  ')}`);
  process.exit(1);
}
const files = await renderSnapshot();
// Files of repositories that are gone must go too: the folder holds exactly what is rendered.
rmSync(join(root, SNAPSHOT_DIR), { recursive: true, force: true });
for (const file of files) {
  mkdirSync(dirname(join(root, file.path)), { recursive: true });
  writeFileSync(join(root, file.path), file.text);
}
const count = readdirSync(join(root, SNAPSHOT_DIR), { recursive: true }).filter((f) => String(f).endsWith('.sql')).length;
console.log(`sql snapshot: wrote ${count} files under ${SNAPSHOT_DIR}/`);
