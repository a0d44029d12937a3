import { customerScenarios } from './customers.js';
import { customFieldScenarios } from './customfields.js';
import { floor } from './floor.js';
import { orderScenarios } from './orders.js';
import type { Scenario } from './scenario.js';

/** Every scenario in run order: reads first, then the writes (they change what the reads see). */
export const ALL_SCENARIOS: readonly Scenario[] = [floor, ...customerScenarios, ...customFieldScenarios, ...orderScenarios];

export function scenarioById(id: string): Scenario {
  const s = ALL_SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario ${id}; one of ${ALL_SCENARIOS.map((x) => x.id).join(', ')}`);
  return s;
}
