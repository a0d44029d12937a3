import { basePath } from '../base-path.js';
import { call } from './client.js';

/** What the signed-in key may do, and which of the console's routes this service has; the console offers nothing else. */
export interface Capabilities {
  /** The key's name, as created. */
  readonly name: string;
  /** The spec's operations and the feeds (permission `all`). */
  readonly all: boolean;
  /** Operator routes (permission `admin`). */
  readonly admin: boolean;
  /** Payments, refunds, shipments and returns of confirmed orders (permission `fulfilment`, or `admin`). */
  readonly fulfilment: boolean;
  /** Bank data unmasked (permission `bank`); the service masks it otherwise. */
  readonly bank: boolean;
  /** The service records shipments (`POST /orders/{OrderId}/shipments`). */
  readonly shipments: boolean;
  /** The service records returns (`POST /orders/{OrderId}/returns`). */
  readonly returns: boolean;
  /** The order feed filters by `FulfillmentStatuses`. */
  readonly fulfilmentFilter: boolean;
}

export const NO_CAPABILITIES: Capabilities = {
  name: '',
  all: false,
  admin: false,
  fulfilment: false,
  bank: false,
  shipments: false,
  returns: false,
  fulfilmentFilter: false,
};

/** The signed-in key as `GET /keys/current` answers it (any valid key may ask). */
interface CurrentKey {
  readonly Id: string;
  readonly Name: string;
  readonly Permissions: readonly string[];
}

type OpenApi = { paths?: Record<string, Record<string, { parameters?: Array<{ name?: string }> } | undefined> | undefined> };

/**
 * The routes of the order's life this service has, from its public OpenAPI document (a service
 * older than them lacks some; the console then does not offer them). Unreadable: none.
 */
async function orderLifeRoutes(): Promise<Pick<Capabilities, 'shipments' | 'returns' | 'fulfilmentFilter'>> {
  try {
    const res = await fetch(`${basePath}/openapi.json`, { credentials: 'omit' });
    const doc = res.ok ? ((await res.json()) as OpenApi) : {};
    const paths = doc.paths ?? {};
    const search = paths['/orders/']?.get?.parameters ?? [];
    return {
      shipments: Boolean(paths['/orders/{OrderId}/shipments']?.post),
      returns: Boolean(paths['/orders/{OrderId}/returns']?.post),
      fulfilmentFilter: search.some((p) => p.name?.toLowerCase() === 'fulfillmentstatuses'),
    };
  } catch {
    return { shipments: false, returns: false, fulfilmentFilter: false };
  }
}

/**
 * Asks the API once what a key is and may do (`GET /keys/current`); an unknown or revoked key
 * throws its 401. `admin` grants `fulfilment` too (src/auth/key.model.ts).
 */
export async function keyCapabilities(key: string): Promise<Capabilities> {
  const [current, routes] = await Promise.all([call<CurrentKey>('GET', '/keys/current', { key }), orderLifeRoutes()]);
  const held = new Set(current.body.Permissions);
  const admin = held.has('admin');
  return {
    name: current.body.Name,
    all: held.has('all'),
    admin,
    fulfilment: admin || held.has('fulfilment'),
    bank: held.has('bank'),
    ...routes,
  };
}
