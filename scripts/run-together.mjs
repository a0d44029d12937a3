// Runs npm scripts at the same time and fails when any of them fails: the steps of `npm test` that
// come before the tests (two compilations, the import check, the format check, the lint) are independent, and
// each uses one core. Each script's output is printed in one piece once it has ended, so that the
// outputs do not interleave.
//
//   node scripts/run-together.mjs build build:test circles format:check lint
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/run-together.mjs <npm script>…\n');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = [];
const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', script, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const output = [];
    child.stdout.on('data', (c) => output.push(c));
    child.stderr.on('data', (c) => output.push(c));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) process.stderr.write(`npm run ${script}: ${signal ?? `exit code ${code}`}\n`);
      resolve(code === 0);
    });
  });

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => children.forEach((c) => c.kill(signal)));
const results = await Promise.all(scripts.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
