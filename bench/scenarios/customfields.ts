import { load } from '../lib/load.js';
import {
  call,
  customerId,
  describe,
  isMissingRoute,
  loadNote,
  notAvailable,
  spread,
  type Scenario,
  type ScenarioContext,
  type ScenarioResult,
} from './scenario.js';

/** Ten definitions, one or more of every type, as an operator would set them up. */
const DEFINITIONS = [
  { Number: 1, Label: 'Newsletter text', FieldType: 'Text', AllowedValues: null, value: 'Sommeraktion' },
  { Number: 2, Label: 'Visits', FieldType: 'Number', AllowedValues: null, value: 17 },
  { Number: 3, Label: 'Credit limit', FieldType: 'Decimal', AllowedValues: null, value: 2500.5 },
  { Number: 4, Label: 'VIP', FieldType: 'Boolean', AllowedValues: null, value: true },
  { Number: 5, Label: 'Birthday', FieldType: 'Date', AllowedValues: null, value: '1984-05-17' },
  { Number: 6, Label: 'Segment', FieldType: 'Select', AllowedValues: ['A', 'B', 'C'], value: 'B' },
  { Number: 7, Label: 'Interests', FieldType: 'MultiSelect', AllowedValues: ['Garten', 'Küche', 'Reisen'], value: ['Garten', 'Reisen'] },
  { Number: 8, Label: 'Account manager', FieldType: 'Text', AllowedValues: null, value: 'Frau Weber' },
  { Number: 9, Label: 'Orders last year', FieldType: 'Number', AllowedValues: null, value: 4 },
  { Number: 10, Label: 'Remark', FieldType: 'Text', AllowedValues: null, value: 'ruft lieber an' },
] as const;

/** Customers whose fields carry values; reads spread over them. */
const WITH_VALUES = 100;

// By database: the same data serve the service and the limit server.
const prepared = new WeakMap<ScenarioContext['db'], Promise<string | undefined>>();

/** Defines the ten fields and gives the first customers values; undefined when done, else why not. */
function prepare(ctx: ScenarioContext): Promise<string | undefined> {
  let p = prepared.get(ctx.db);
  if (!p) {
    p = (async () => {
      for (const [i, d] of DEFINITIONS.entries()) {
        const answer = await call(ctx.server, 'PUT', `/customfields/${d.Number}`, {
          Label: d.Label,
          FieldType: d.FieldType,
          IsReadOnly: false,
          AllowedValues: d.AllowedValues,
          Sort: (i * 7) % 10,
        });
        if (isMissingRoute(answer)) return 'custom field definitions (PUT /customfields/{Number})';
        if (answer.status >= 300) throw new Error(`defining custom field ${d.Number}: ${describe(answer)}`);
      }
      for (let n = 1; n <= Math.min(WITH_VALUES, ctx.customers); n++) {
        for (const d of DEFINITIONS) {
          const answer = await call(ctx.server, 'PUT', `/customer/${customerId(n)}/customfields/${d.Number}`, { Value: d.value });
          if (isMissingRoute(answer)) return undefined; // reads still measure, with unset values
          if (answer.status >= 300) throw new Error(`writing custom field ${d.Number}: ${describe(answer)}`);
        }
      }
      return undefined;
    })();
    prepared.set(ctx.db, p);
  }
  return p;
}

export const customFieldsRead: Scenario = {
  id: 'cf-read',
  label: 'custom fields read (10 definitions)',
  limit: true,
  async run(ctx): Promise<ScenarioResult> {
    const missing = await prepare(ctx);
    if (missing) return notAvailable(missing);
    const requests = spread(1000, Math.min(WITH_VALUES, ctx.customers), 5).map((n) => ({
      path: `/customer/${customerId(n)}/customfields/`,
    }));
    const first = await call(ctx.server, 'GET', requests[0]!.path);
    if (isMissingRoute(first)) return notAvailable('GetCustomerCustomFields');
    if (first.status !== 200 || !Array.isArray(first.body) || first.body.length !== DEFINITIONS.length) {
      return { status: 'failed', note: `expected ${DEFINITIONS.length} custom fields, got ${describe(first)}` };
    }
    const result = await load({ url: ctx.server.url, requests, servingPids: ctx.server.servingPids });
    return { status: 'ok', load: result, note: loadNote(result) };
  },
};

export const customFieldWrite: Scenario = {
  id: 'cf-write',
  label: 'custom field write (PUT one value)',
  async run(ctx): Promise<ScenarioResult> {
    const missing = await prepare(ctx);
    if (missing) return notAvailable(missing);
    const targets = spread(5000, ctx.customers, 9);
    let i = 0;
    const next = () => {
      const n = targets[i % targets.length]!;
      i++;
      return { method: 'PUT' as const, path: `/customer/${customerId(n)}/customfields/1`, body: JSON.stringify({ Value: `Wert ${i}` }) };
    };
    const probe = next();
    const first = await call(ctx.server, 'PUT', probe.path, JSON.parse(probe.body));
    if (isMissingRoute(first)) return notAvailable('custom field write (PUT /customer/{id}/customfields/{Number})');
    if (first.status >= 300) return { status: 'failed', note: `write: ${describe(first)}` };
    const result = await load({ url: ctx.server.url, next, servingPids: ctx.server.servingPids });
    return { status: 'ok', load: result, note: loadNote(result) };
  },
};

export const customFieldScenarios: readonly Scenario[] = [customFieldsRead, customFieldWrite];
