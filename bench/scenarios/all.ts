import { customerScenarios } from './customers.js';
import { customFieldScenarios } from './customfields.js';
import { floor } from './floor.js';
import { orderContentScenarios } from './order-content.js';
import { orderScenarios } from './orders.js';
import { orderLifeScenarios } from './order-life.js';
import { textSearchScenarios } from './text-search.js';
import { webhookScenarios } from './webhooks.js';
import { SCENARIO_FILTER } from '../lib/settings.js';
import type { Scenario } from './scenario.js';

/** Every scenario in run order: reads first, then the writes (they change what the reads see). */
export const ALL_SCENARIOS: readonly Scenario[] = [
  floor,
  ...customerScenarios,
  ...textSearchScenarios,
  ...customFieldScenarios,
  ...orderScenarios,
  ...orderContentScenarios,
  ...orderLifeScenarios,
  ...webhookScenarios,
];

export function scenarioById(id: string): Scenario {
  const s = ALL_SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario ${id}; one of ${ALL_SCENARIOS.map((x) => x.id).join(', ')}`);
  return s;
}

/** The scenarios of this run, in run order: those of BENCH_SCENARIOS (an unknown id is an error), else every one. */
export function selectedScenarios(): readonly Scenario[] {
  const wanted = SCENARIO_FILTER;
  if (!wanted) return ALL_SCENARIOS;
  for (const id of wanted) scenarioById(id);
  return ALL_SCENARIOS.filter((s) => wanted.has(s.id));
}
