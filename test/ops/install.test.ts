import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
// The npm_config_* of an `npm test` run would hide what a plain shell sees.
const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

test('npm reads no unknown project setting (no warning on every npm command)', async () => {
  const { stderr } = await run('npm', ['config', 'list'], { cwd: ROOT, env: shellEnv });
  assert.doesNotMatch(stderr, /Unknown project config/);
});

test("better-sqlite3's install step builds from source: prebuild-install finds .prebuild-installrc", async () => {
  const { stdout } = await run(process.execPath, ['-p', "require('prebuild-install/rc')({ name: 'better-sqlite3' }).buildFromSource"], {
    cwd: ROOT,
    env: shellEnv,
  });
  assert.equal(stdout.trim(), 'true');
});

test('npm run build compiles and bundles only when a source changed', async () => {
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: shellEnv });
  const outs = ['dist/cli/main.js', 'dist/bin/main.js'].map((f) => join(ROOT, f));
  const before = outs.map((f) => statSync(f).mtimeMs);
  await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: shellEnv });
  assert.deepEqual(
    outs.map((f) => statSync(f).mtimeMs),
    before,
    'nothing was written',
  );
});

test("the README's CLI forms for another directory work there", async () => {
  const bin = join(ROOT, 'bin/ordergate.js');
  for (const [command, args] of [
    [process.execPath, [bin, '--help']],
    ['npm', ['exec', '--prefix', ROOT, '--', 'ordergate', '--help']],
  ] as const) {
    const { stdout } = await run(command, [...args], { cwd: tmpdir(), env: shellEnv });
    assert.match(stdout, /^usage:\n {2}ordergate serve/, `${command} ${args.join(' ')}`);
  }
});
