import type { AddressInfo } from 'node:net';
import { JsonApiClient, JsonServiceClient } from '@servicestack/client';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { Backend } from '../helpers/test-store.js';

/** A whole app listening on 127.0.0.1 on a random port, for clients that speak real HTTP. */
export interface RunningServer {
  readonly t: TestApp;
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function startServer(backend: Backend, env: Record<string, string> = {}): Promise<RunningServer> {
  const t = await createTestApp(backend, env);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, baseUrl: `http://127.0.0.1:${port}`, close: () => t.close() };
}

/** The three ways ServiceStack's TypeScript client is configured in the wild. */
export type ClientFlavour = 'JsonServiceClient /api' | 'JsonServiceClient /json/reply' | 'JsonApiClient';
export const CLIENT_FLAVOURS: readonly ClientFlavour[] = ['JsonServiceClient /api', 'JsonServiceClient /json/reply', 'JsonApiClient'];

/** A client and the status of its last response (the client itself only exposes bodies). */
export interface ObservedClient {
  readonly client: JsonServiceClient;
  readonly statuses: number[];
  readonly urls: string[];
  lastStatus(): number | undefined;
}

export function makeClient(flavour: ClientFlavour, baseUrl: string, key?: string): ObservedClient {
  const client =
    flavour === 'JsonApiClient'
      ? JsonApiClient.create(baseUrl)
      : flavour === 'JsonServiceClient /json/reply'
        ? new JsonServiceClient(baseUrl).apply((c) => (c.basePath = null as unknown as string))
        : new JsonServiceClient(baseUrl);
  if (key !== undefined) client.bearerToken = key;
  const statuses: number[] = [];
  const urls: string[] = [];
  client.responseFilter = (res) => void statuses.push(res.status);
  client.urlFilter = (url) => void urls.push(url);
  return { client, statuses, urls, lastStatus: () => statuses[statuses.length - 1] };
}

/** The path prefix a flavour's requests must use: proof that the flavour really is what it says. */
export const expectedPrefix = (flavour: ClientFlavour): string => (flavour === 'JsonServiceClient /json/reply' ? '/json/reply/' : '/api/');
