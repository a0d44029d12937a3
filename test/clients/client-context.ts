import type { IReturn } from '@servicestack/client';
import * as handWritten from './dtos.js';
import { makeClient } from './client-server.js';
import type { ScenarioContext } from './scenarios.js';

/** A module of DTO classes by operation name: the hand-written ones or the compiled `/types/typescript`. */
export type DtoModule = Record<string, unknown>;
type DtoClass = new (init?: Record<string, unknown>) => IReturn<unknown>;

export const HAND_WRITTEN: DtoModule = handWritten;

export function dtoFactory(module: DtoModule): (name: string, init?: Record<string, unknown>) => IReturn<unknown> {
  return (name, init) => {
    const ctor = module[name];
    if (typeof ctor !== 'function') throw new Error(`no DTO class '${name}' in the DTO module`);
    return new (ctor as DtoClass)(init);
  };
}

/** Scenario context over a running server: setup through an admin `JsonServiceClient`. */
export function scenarioContext(baseUrl: string, adminKey: string, module: DtoModule): ScenarioContext {
  let seq = 0;
  let field = 0;
  const run = Math.random().toString(36).slice(2, 8);
  return {
    admin: makeClient('JsonServiceClient /api', baseUrl, adminKey).client,
    dto: dtoFactory(module),
    unique: (prefix) => `${prefix}-${run}-${++seq}`,
    fieldNumber: () => 1000 + ++field,
  };
}
