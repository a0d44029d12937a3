import { CLI_KEY_ID } from '../audit/index.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  replay,
  sendTestEvent,
  WEBHOOK_TEST_EVENT,
} from '../webhooks/index.js';
import { isEventType } from '../writes/event-types.js';
import { parseCommandArgs, refusalInCliTerms, UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

const settingsOf = (config: Parameters<RunCommand>[1]) => ({
  secretKey: config.webhook.secretKey,
  allowPrivate: config.webhook.allowPrivate,
});

export const webhooksAddCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: { events: { type: 'string', default: '' }, description: { type: 'string', default: '' } },
  });
  const url = positionals[0];
  if (!url || positionals.length > 1) throw new UsageError('give one URL');
  const types = values
    .events!.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0) throw new UsageError(`--events: unknown event type ${unknown.join(', ')}`);
  if (values.description!.length > 255) throw new UsageError('--description takes at most 255 characters');
  const { endpoint, secret } = await withStore(config, (_store, writes) =>
    refusalInCliTerms(() => createEndpoint(writes, settingsOf(config), CLI_KEY_ID, { url, types, description: values.description! })),
  );
  process.stdout.write(
    `created webhook ${endpoint.endpoint_id} for ${endpoint.url} (${types.length > 0 ? types.join(',') : 'every event type'}); its signing secret, shown only now:\n`,
  );
  process.stdout.write(`${secret}\n`);
};

export const webhooksListCommand: RunCommand = async (_args, config) => {
  for (const e of await withStore(config, listEndpoints)) {
    const types = JSON.parse(e.event_types) as string[];
    process.stdout.write(
      `${e.endpoint_id} ${e.url} ${types.length > 0 ? types.join(',') : '*'} ${e.disabled_at === null ? 'enabled' : `disabled:${e.disabled_reason}`}\n`,
    );
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
  const queued = await withStore(config, (_store, writes) =>
    refusalInCliTerms(() => replay(writes, CLI_KEY_ID, id, Number(values.after), undefined)),
  );
  process.stdout.write(`queued ${queued} deliveries to ${id}; running servers deliver them\n`);
};

/**
 * Sends a test event and prints how it went: exit 0 when the receiver took it, 1 when not (the
 * reason printed) or when no endpoint has the id.
 */
export const webhooksTestCommand: RunCommand = async (args, config) => {
  const { positionals } = parseCommandArgs({ args, allowPositionals: true, options: {} });
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError('give one endpoint id (see webhooks list)');
  const settings = { ...settingsOf(config), timeoutMs: config.webhook.timeoutMs, casing: config.jsonCasing, dateStyle: config.dateFormat };
  const { url, sent } = await withStore(config, async (store, writes) => ({
    url: (await getEndpoint(store, id)).url,
    sent: await sendTestEvent(store, writes, settings, id),
  }));
  const answer = sent.response_code === null ? '' : `, HTTP ${sent.response_code}`;
  if (sent.status === 'Delivered') {
    process.stdout.write(`delivered ${WEBHOOK_TEST_EVENT} ${sent.event_id} to ${url}${answer} in ${sent.duration_ms} ms\n`);
    return 0;
  }
  process.stdout.write(`failed ${WEBHOOK_TEST_EVENT} ${sent.event_id} to ${url}: ${sent.error}${answer} after ${sent.duration_ms} ms\n`);
  return 1;
};
