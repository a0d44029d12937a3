import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { toCustomerData } from '../../src/customers/customer.mapping.js';
import type { Store } from '../../src/store/store.js';
import { committedWatermark, nextStamp } from '../../src/store/sync-clock.js';
import { parseWireDate } from '../../src/wire/dates.js';
import { json, type TestApp } from '../helpers/test-app.js';

/** PUTs a customer over HTTP and returns its modification stamp as the store holds it. */
export async function putCustomer(t: TestApp, id: string, body: Record<string, unknown> = {}): Promise<number> {
  const res = await t.inject({ method: 'PUT', url: `/customer/${encodeURIComponent(id)}`, payload: body });
  assert.ok(res.statusCode === 201 || res.statusCode === 200, res.body);
  return stampOf(t.store, id);
}

export async function stampOf(store: Store, id: string): Promise<number> {
  const row = await customerRepository.findById(store.db, id);
  assert.ok(row, `customer ${id} exists`);
  return Number(row.modified_at);
}

/** Writes several customers in ONE transaction (so they share a stamp); `now` pins the clock reading. */
export async function writeTogether(
  store: Store,
  ids: readonly string[],
  fields: Record<string, string> = {},
  now?: number,
): Promise<number> {
  return store.writeTransaction(async (trx) => {
    for (const id of ids) await customerRepository.writeData(trx, id, toCustomerData({ ...fields }), 0);
    const stamp = await nextStamp(trx, now);
    await customerRepository.touch(trx, ids, stamp);
    return stamp;
  });
}

export const currentWatermark = (store: Store): Promise<number> => committedWatermark(store.reader);

/** The X-Sync-Watermark of a response, as epoch ms. */
export function watermarkOf(res: LightMyRequestResponse): number {
  const header = res.headers['x-sync-watermark'];
  assert.equal(typeof header, 'string', 'X-Sync-Watermark header present');
  const ms = parseWireDate(header as string);
  assert.ok(ms !== undefined, `watermark ${String(header)} parses`);
  return ms;
}

export const idsOf = (res: LightMyRequestResponse): string[] => {
  assert.equal(res.statusCode, 200, res.body);
  return (json(res) as Array<{ CustomerId: string }>).map((c) => c.CustomerId);
};

export const sorted = (ids: readonly string[]): string[] => [...ids].sort();
