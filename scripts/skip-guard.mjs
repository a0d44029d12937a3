// A reporter for node's test runner, next to `spec`: a run that reports a skipped (or todo) test or
// suite fails under CI (CI set and not "false"), so that a green CI run means every test ran. Outside
// CI it only names them, as a warning.
import process from 'node:process';

const underCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

export default async function* skipGuard(source) {
  const skipped = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, skip, todo, file } = event.data;
    if (skip === undefined && todo === undefined) continue;
    const why =
      skip !== undefined ? `skipped${typeof skip === 'string' ? `: ${skip}` : ''}` : `todo${typeof todo === 'string' ? `: ${todo}` : ''}`;
    skipped.push(`  ${name} (${why})${file ? ` in ${file}` : ''}`);
  }
  if (skipped.length === 0) return;
  const head = underCi
    ? `${skipped.length} test(s) did not run, and on CI every test must run:`
    : `warning: ${skipped.length} test(s) did not run (on CI this fails the run):`;
  yield `${head}\n${skipped.join('\n')}\n`;
  if (underCi) process.exitCode = 1;
}
