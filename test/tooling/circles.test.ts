import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkCircles } from '../../scripts/check-circles.js';
import { ROOT } from '../helpers/root.js';

const SRC = join(ROOT, 'src');

/** Writes a tree of .ts files: path → source. */
function tree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/**
 * Runs the check's command on another tree, in a process of its own: the script `npm run circles`
 * runs through tsx, as tsc compiled it beside this test (build/test/scripts), since tsx's start
 * would double each run's CPU.
 */
function runCheck(dir: string): { status: number | null; stderr: string } {
  const script = join(import.meta.dirname, '../../scripts/check-circles.js');
  const r = spawnSync(process.execPath, [script, dir], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('the import-circle check', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ordergate-circles-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('passes a tree whose arrows all point down', () => {
    const root = tree(join(dir, 'clean'), {
      'app.ts': "import { a } from './mod/a.js';\nexport const app = a;\n",
      'mod/a.ts': "import type { B } from './b.js';\nimport { base } from '../base.js';\nexport const a: B = base;\n",
      'mod/b.ts': "import { base } from '../base.js';\nexport type B = typeof base;\n",
      // An import that only a comment or a string shows is not an arrow.
      'base.ts': "// import { app } from './app.js';\nexport const base = \"import('./app.js')\";\n",
    });
    assert.deepEqual(checkCircles(root), { fileCircles: [], entryCircles: [], deepImports: [], envReads: [], misnamedFiles: [] });
  });

  test('fails on a file name off the rule: kebab-case everywhere, <subject>.<role>.ts in a resource module', () => {
    const root = tree(join(dir, 'names'), {
      'app.ts': "export { orderOperations } from './orders/index.js';\n",
      'write-thread.worker.ts': 'export const worker = 1;\n',
      'orders/index.ts': "export { orderOperations } from './order.operations.js';\n",
      'orders/order.operations.ts': "import { rows } from './order-life.records.js';\nexport const orderOperations = rows;\n",
      'orders/order-life.records.ts': "import './bank-access.js';\nimport './order.statements.js';\nexport const rows = 1;\n",
      'orders/bank-access.ts': "import './orderRules.js';\nexport const bank = 1;\n",
      'orders/order.statements.ts': "import './order.import.content.js';\nexport const text = '';\n",
      'orders/order.import.content.ts': 'export const content = 1;\n',
      'orders/orderRules.ts': 'export const rules = 1;\n',
      'Shared/util_file.ts': "import '../app.js';\nexport const util = 1;\n",
    });
    assert.deepEqual(checkCircles(root).misnamedFiles, [
      'Shared/util_file.ts',
      'orders/bank-access.ts',
      'orders/order.import.content.ts',
      'orders/orderRules.ts',
    ]);
    const r = runCheck(root);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /file name off the rule .*: \S+\/orders\/bank-access\.ts/);
  });

  test('fails on a circle between two files, type-only and dynamic imports included, and prints it with exit code 1', () => {
    const root = tree(join(dir, 'files'), {
      'mod/a.ts': "import type { B } from './b.js';\nexport type A = B | 1;\n",
      'mod/b.ts': "export type B = 2;\nexport const load = () => import('./a.js');\n",
    });
    const r = runCheck(root);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /import circle between files: \S+\/mod\/a\.ts <-> \S+\/mod\/b\.ts/);
  });

  test('fails on a circle between top-level entries even when no two files form one', () => {
    const root = tree(join(dir, 'entries'), {
      'app.ts': "export { orders } from './orders/orders.js';\nexport const version = 1;\n",
      'orders/orders.ts': "import { customers } from '../customers/customers.js';\nexport const orders = customers;\n",
      'customers/customers.ts': "import '../app-settings.js';\nexport const customers = 1;\n",
      'app-settings.ts': "import { orders } from './orders/orders-total.js';\nexport const settings = orders;\n",
      'orders/orders-total.ts': 'export const orders = 0;\n',
    });
    const report = checkCircles(root);
    assert.deepEqual(report.fileCircles, []);
    assert.deepEqual(report.entryCircles, [['app-settings.ts', 'customers', 'orders']]);
  });

  test("fails on an import of another resource module's file other than its index.ts, and prints it", () => {
    const root = tree(join(dir, 'faces'), {
      'app.ts':
        "import { orderOperations } from './orders/index.js';\nimport { customerWrites } from './customers/customer.writes.js';\nexport const ops = [orderOperations, customerWrites];\n",
      'orders/index.ts': "export { orderOperations } from './order.operations.js';\n",
      // Within its own module a file imports any other: only the way in from outside is one file.
      'orders/order.operations.ts':
        "import { toOrder } from './order.mapping.js';\nimport { addressOf } from '../customers/customer.mapping.js';\nexport const orderOperations = [toOrder, addressOf];\n",
      'orders/order.mapping.ts': "import type { Address } from '../customers/index.js';\nexport const toOrder = (a: Address) => a;\n",
      'customers/index.ts': 'export type Address = string;\n',
      'customers/customer.mapping.ts': 'export const addressOf = 1;\n',
      'customers/customer.writes.ts': 'export const customerWrites = 2;\n',
    });
    assert.deepEqual(checkCircles(root).deepImports, [
      'app.ts -> customers/customer.writes.ts',
      'orders/order.operations.ts -> customers/customer.mapping.ts',
    ]);
    const r = runCheck(root);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /import of another module's inside \(import its index\.ts\): \S+\/orders\/order\.operations\.ts -> \S+\/customers\/customer\.mapping\.ts/,
    );
  });

  test('fails on process.env outside config.ts (dotted or indexed), not on the word in a comment or a string', () => {
    const root = tree(join(dir, 'env'), {
      'config.ts': 'export const port = process.env.PORT;\n',
      'ops/cluster.ts':
        "// process.env is config.ts's\nexport const label = 'process.env';\nexport const worker = () => process.env.WORKER === '1';\n",
      'ops/other.ts': "export const all = process['env'];\n",
    });
    assert.deepEqual(checkCircles(root).envReads, ['ops/cluster.ts:3', 'ops/other.ts:1']);
    const r = runCheck(root);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /process\.env read outside \S+\/config\.ts: \S+\/ops\/cluster\.ts:3/);
  });

  test('src/ has no import circle, no import into another module past its index.ts, reads process.env in config.ts alone, and names its files by the rule', () => {
    assert.deepEqual(checkCircles(SRC), { fileCircles: [], entryCircles: [], deepImports: [], envReads: [], misnamedFiles: [] });
  });
});
