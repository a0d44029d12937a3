import { ApiError, call } from './client.js';

/** What the signed-in key may do; the console offers nothing else. */
export interface Capabilities {
  /** The spec's operations and the feeds (permission `all`). */
  readonly all: boolean;
  /** Operator routes (permission `admin`). */
  readonly admin: boolean;
}

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
 * Asks the API what a key may do, by one cheap read of each permission (the service has no
 * "who am I"); an unknown key throws the 401 of the first.
 */
export async function probeCapabilities(key: string): Promise<Capabilities> {
  const all = await allowed('/events/', key);
  const admin = await allowed('/audit/', key);
  return { all, admin };
}
