import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { cliEnv, type CliResult } from './cli.js';
import { ROOT } from './root.js';

/** What one CLI run printed and the exit code its `main()` resolved to. */
export interface ThreadCliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Ends each run's output on stdout and stderr, so the parent knows where one run's output stops. */
const END = '\u0000ordergate-cli-run-ended\u0000';

// The thread runs the built CLI's main() (dist/bin/main.js, as bin/ordergate.js does) once per message, with
// process.env replaced by the run's environment; its stdout and stderr are its own, piped to the parent.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ mainUrl, argv, env, end }) => {
  const { main } = await import(mainUrl);
  for (const name of Object.keys(process.env)) delete process.env[name];
  Object.assign(process.env, env);
  let code;
  try {
    code = await main(argv);
  } catch (err) {
    process.stderr.write(String(err && err.stack || err) + '\\n');
    code = 1;
  }
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write(end, done))));
  parentPort.postMessage(code);
});
`;

/**
 * The built CLI run in one worker thread of the test's process, one command after another: the same main()
 * the `ordergate` binary runs, without starting a node process per command. For tests of what a command
 * does with its arguments, files and store; a test of the process itself (signals, exit, a terminal) spawns it.
 */
export class CliThread {
  private readonly worker = new Worker(THREAD_SOURCE, { eval: true, stdout: true, stderr: true });
  private out = '';
  private err = '';
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.worker.stdout.setEncoding('utf8').on('data', (c: string) => (this.out += c));
    this.worker.stderr.setEncoding('utf8').on('data', (c: string) => (this.err += c));
  }

  /** Runs `ordergate <argv>` with exactly env as its environment. */
  run(argv: readonly string[], env: Record<string, string>): Promise<ThreadCliResult> {
    const result = this.queue.then(() => this.runNow(argv, env));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** As runCli(): `ordergate <argv>` in cliEnv(env), its result in the same shape. */
  async cli(argv: readonly string[], env: Record<string, string>): Promise<CliResult> {
    const r = await this.run(argv, cliEnv(env));
    return { code: r.code, stdout: r.out, stderr: r.err };
  }

  private async runNow(argv: readonly string[], env: Record<string, string>): Promise<ThreadCliResult> {
    const mainUrl = pathToFileURL(join(ROOT, 'dist/bin/main.js')).href;
    this.worker.postMessage({ mainUrl, argv: [...argv], env, end: END });
    // A thread that fails emits 'error', which rejects this wait.
    const [code] = (await once(this.worker, 'message')) as [number];
    while (!this.out.includes(END) || !this.err.includes(END)) await new Promise((r) => setImmediate(r));
    const cut = (text: string): [string, string] => {
      const at = text.indexOf(END);
      return [text.slice(0, at), text.slice(at + END.length)];
    };
    let out: string, err: string;
    [out, this.out] = cut(this.out);
    [err, this.err] = cut(this.err);
    return { code, out, err };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
