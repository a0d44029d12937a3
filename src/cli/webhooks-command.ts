import { CLI_KEY_ID } from '../audit/audit.actions.js';
import { createEndpoint, deleteEndpoint, listEndpoints, replay } from '../webhooks/webhook.service.js';
import { isEventType } from '../writes/event-types.js';
import { parseCommandArgs, refusalInCliTerms, UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

const settingsOf = (config: Parameters<RunCommand>[1]) => ({ secretKey: config.webhook.secretKey, allowPrivate: config.webhook.allowPrivate });

export const webhooksAddCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, options: { events: { type: 'string', default: '' }, description: { type: 'string', default: '' } } });
  const url = positionals[0];
  if (!url || positionals.length > 1) throw new UsageError('give one URL');
  const types = values.events!.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0) throw new UsageError(`--events: unknown event type ${unknown.join(', ')}`);
  if (values.description!.length > 255) throw new UsageError('--description takes at most 255 characters');
  const { endpoint, secret } = await withStore(config, (_store, writes) =>
    refusalInCliTerms(() => createEndpoint(writes, settingsOf(config), CLI_KEY_ID, { url, types, description: values.description! })),
  );
  process.stdout.write(`created webhook ${endpoint.endpoint_id} for ${endpoint.url} (${types.length > 0 ? types.join(',') : 'every event type'}); its signing secret, shown only now:\n`);
  process.stdout.write(`${secret}\n`);
};

export const webhooksListCommand: RunCommand = async (_args, config) => {
  for (const e of await withStore(config, listEndpoints)) {
    const types = JSON.parse(e.event_types) as string[];
    process.stdout.write(`${e.endpoint_id} ${e.url} ${types.length > 0 ? types.join(',') : '*'} ${e.disabled_at === null ? 'enabled' : `disabled:${e.disabled_reason}`}\n`);
  }
};

export const webhooksRemoveCommand: RunCommand = async (args, config) => {
  const id = args[0];
  if (!id) throw new UsageError('the endpoint id is required (see webhooks list)');
  await withStore(config, (_store, writes) => refusalInCliTerms(() => deleteEndpoint(writes, CLI_KEY_ID, id)));
  process.stdout.write(`removed ${id}\n`);
};

export const webhooksReplayCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, options: { after: { type: 'string' } } });
  const id = positionals[0];
  if (!id) throw new UsageError('the endpoint id is required (see webhooks list)');
  if (values.after === undefined || !/^\d+$/.test(values.after)) throw new UsageError('--after takes a Sequence (a whole number ≥ 0)');
  const queued = await withStore(config, (_store, writes) => refusalInCliTerms(() => replay(writes, CLI_KEY_ID, id, Number(values.after), undefined)));
  process.stdout.write(`queued ${queued} deliveries to ${id}; running servers deliver them\n`);
};
