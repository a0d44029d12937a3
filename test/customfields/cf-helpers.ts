import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { json, type TestApp } from '../helpers/test-app.js';

export interface DefinitionBody {
  Label: string;
  FieldType: string;
  IsReadOnly?: boolean;
  AllowedValues?: string[] | null;
  Sort?: number;
}

/** Numbers unique per test run, so tests sharing one app never meet. */
let next = 1000;
export const freshNumber = (): number => next++;

/** Defines a custom field through the operator route and checks it was accepted. */
export async function define(t: TestApp, number: number, body: DefinitionBody): Promise<void> {
  const res = await t.inject({ method: 'PUT', url: `/customfields/${number}`, payload: body });
  assert.ok(res.statusCode === 200 || res.statusCode === 201, `define ${number}: ${res.statusCode} ${res.body}`);
}

/** Creates a customer through the operator route. */
export async function customer(t: TestApp, id: string): Promise<void> {
  const res = await t.inject({ method: 'PUT', url: `/customer/${encodeURIComponent(id)}`, payload: { FirstName: 'Test' } });
  assert.ok(res.statusCode === 201 || res.statusCode === 200, res.body);
}

export async function setValue(t: TestApp, customerId: string, number: number, value: unknown): Promise<LightMyRequestResponse> {
  return t.inject({ method: 'PUT', url: `/customer/${encodeURIComponent(customerId)}/customfields/${number}`, payload: { Value: value } });
}

/** The fields of a customer with the given numbers, as the client sees them. */
export async function readFields(t: TestApp, customerId: string, numbers: readonly number[]): Promise<any[]> {
  const res = await t.inject(`/customer/${encodeURIComponent(customerId)}/customfields/${numbers.join(',')}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

/** The Value of one field of a customer. */
export async function valueOf(t: TestApp, customerId: string, number: number): Promise<unknown> {
  const [field] = await readFields(t, customerId, [number]);
  assert.ok(field, `field ${number} missing`);
  return field.Value;
}

/** The ResponseStatus of an error response, after checking its status. */
export function errorOf(
  res: LightMyRequestResponse,
  status: number,
): { ErrorCode: string; Message: string; Errors: Array<{ ErrorCode: string; FieldName: string; Message: string }> } {
  assert.equal(res.statusCode, status, res.body);
  return json(res).ResponseStatus;
}
