import { basePath } from '../base-path.js';
import { ApiError, call } from './client.js';

/** What the signed-in key may do, and which of the console's routes this service has; the console offers nothing else. */
export interface Capabilities {
  /** The spec's operations and the feeds (permission `all`). */
  readonly all: boolean;
  /** Operator routes (permission `admin`). */
  readonly admin: boolean;
  /** Payments, refunds, shipments and returns of confirmed orders (permission `fulfilment`, or `admin`). */
  readonly fulfilment: boolean;
  /** The service records shipments (`POST /orders/{OrderId}/shipments`). */
  readonly shipments: boolean;
  /** The service records returns (`POST /orders/{OrderId}/returns`). */
  readonly returns: boolean;
  /** The order feed filters by `FulfillmentStatuses`. */
  readonly fulfilmentFilter: boolean;
}

export const NO_CAPABILITIES: Capabilities = {
  all: false,
  admin: false,
  fulfilment: false,
  shipments: false,
  returns: false,
  fulfilmentFilter: false,
};

const allowed = async (path: string, key: string): Promise<boolean> => {
  try {
    await call('GET', path, { key, query: { Take: 1 } });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return false;
    throw e;
  }
};

/**
 * Whether the key may record payments: the service checks the permission before it reads the
 * request, so a request it must refuse anyway (order 0) answers 403 without the permission and
 * 400 with it — nothing is recorded either way.
 */
const mayRecord = async (key: string): Promise<boolean> => {
  try {
    await call('POST', '/orders/0/payments', { key, body: {} });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return false;
    if (e instanceof ApiError && e.status === 400) return true;
    // A service without the route: nothing to offer.
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
};

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
 * Asks the API what a key may do, by one cheap request per permission (the service has no
 * "who am I"); an unknown key throws the 401 of the first.
 */
export async function probeCapabilities(key: string): Promise<Capabilities> {
  const all = await allowed('/events/', key);
  const admin = await allowed('/audit/', key);
  // admin grants fulfilment too (src/auth/key.model.ts): no request needed then.
  const [fulfilment, routes] = await Promise.all([admin ? Promise.resolve(true) : mayRecord(key), orderLifeRoutes()]);
  return { all, admin, fulfilment, ...routes };
}
