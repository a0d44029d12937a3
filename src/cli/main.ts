import { ConfigError, loadConfig } from '../config.js';
import { UsageError, type Command } from './command.js';
import { COMMANDS } from './commands.js';

const usageLines = (commands: readonly Command[]): string =>
  commands.map((c) => `  ordergate ${c.usage.padEnd(48)} ${c.summary}`).join('\n');

function help(): string {
  return `usage:\n${usageLines(COMMANDS)}\n\nConfiguration comes from the environment (see README).\n`;
}

/** `keys` alone or `keys rotate`: the subcommands of the group, instead of every command there is. */
function groupHelp(argv: string[]): string | undefined {
  const group = COMMANDS.filter((c) => c.words.length > 1 && c.words[0] === argv[0]);
  if (group.length === 0) return undefined;
  const opening =
    argv.length === 1
      ? `ordergate ${argv[0]} takes a subcommand: ${group.map((c) => c.words.slice(1).join(' ')).join(', ')}`
      : `unknown command: ${argv.join(' ')}`;
  return `${opening}\nusage:\n${usageLines(group)}\n`;
}

function find(argv: string[]): { command: Command; args: string[] } | undefined {
  let best: Command | undefined;
  for (const c of COMMANDS) {
    if (c.words.every((w, i) => argv[i] === w) && (!best || c.words.length > best.words.length)) best = c;
  }
  return best ? { command: best, args: argv.slice(best.words.length) } : undefined;
}

/** Runs one CLI invocation; resolves to the process exit code (or -1: keep running). */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(help());
    return argv.length === 0 ? 2 : 0;
  }
  const hit = find(argv);
  if (!hit) {
    process.stderr.write(groupHelp(argv) ?? `unknown command: ${argv.join(' ')}\n${help()}`);
    return 2;
  }
  try {
    const config = loadConfig();
    const run = await hit.command.load();
    const code = await run(hit.args, config);
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`ordergate: configuration error: ${err.message}\n`);
      return 78;
    }
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`ordergate: ${err.message}\nusage: ordergate ${hit.command.usage}\n`);
      return 2;
    }
    process.stderr.write(`ordergate: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
