import type { FastifyInstance, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';
import { operationNotFound } from '../errors.js';
import { packageVersion } from '../package-version.js';
import type { AnyOperation } from '../wire/operation.js';
import { csharpDtos } from './csharp-dtos.js';
import { metadataIndex, metadataOperation, type MetadataPageOptions } from './metadata-page.js';
import { metadataTypes } from './metadata-types.js';
import { openApiDocument } from './openapi.js';
import { buildApiModel } from './type-model.js';
import { typescriptDtos, type DtoHeader } from './typescript-dtos.js';

// Swagger UI needs inline styles; everything else it loads is its own files. No upgrade-insecure-
// requests: the service often runs on plain HTTP behind a TLS proxy or on localhost.
const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; frame-ancestors 'self'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'";

/**
 * The public routes that describe the API (no key needed): `/openapi.json`, `/docs`, `/metadata`,
 * `/json/metadata?op=`, `/types/typescript`, `/types/csharp`, `/types/metadata`. All of them are
 * generated from the operation table, so a new operation shows up everywhere by itself.
 */
export async function registerDocs(app: FastifyInstance, ops: readonly AnyOperation[], config: Config): Promise<void> {
  const model = buildApiModel(ops);
  const version = packageVersion();
  const style = { casing: config.jsonCasing, dateStyle: config.dateFormat };
  const pageOptions: MetadataPageOptions = { ...style, basePath: config.basePath };
  // Built on the first request that needs it: most processes (each CLI command's app, each test's) never
  // serve the document, and building it is a good part of the app's start.
  const document = once(() => openApiDocument(model, { ...style, basePath: config.basePath, version }));
  const openApiJson = once(() => JSON.stringify(document()));
  const header = (request: FastifyRequest): DtoHeader => ({
    baseUrl: `${request.protocol}://${request.host}${config.basePath}`,
    version,
    date: new Date(),
  });
  const text = 'text/plain; charset=utf-8';

  // `/openapi.json` arrives as `/openapi`: the wire layer strips format suffixes before routing.
  app.get('/openapi', async (_req, reply) => reply.type('application/json; charset=utf-8').send(openApiJson()));
  app.get('/types/typescript', async (req, reply) => reply.type(text).send(typescriptDtos(model, config.jsonCasing, header(req))));
  app.get('/types/csharp', async (req, reply) => reply.type(text).send(csharpDtos(model, config.jsonCasing, header(req))));
  app.get('/types/metadata', async (req, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(metadataTypes(model, config.jsonCasing, header(req).baseUrl))));
  app.get('/metadata', async (_req, reply) => reply.type('text/html; charset=utf-8').send(metadataIndex(model, pageOptions)));
  app.get('/json/metadata', async (req, reply) => {
    const name = String((req.query as Record<string, unknown>).op ?? '').toLowerCase();
    const m = model.operations.find((x) => x.op.name.toLowerCase() === name);
    if (!m) throw operationNotFound(`${config.basePath}/metadata`);
    return reply.type('text/html; charset=utf-8').send(metadataOperation(model, m, pageOptions));
  });

  await app.register(async (docs) => {
    await docs.register(swagger, { mode: 'static', specification: { document: builtWhenRead(document) as never } });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      indexPrefix: config.basePath,
      staticCSP: DOCS_CSP,
      uiConfig: { layout: 'BaseLayout', docExpansion: 'list', displayOperationId: true, displayRequestDuration: true, tryItOutEnabled: false, deepLinking: true },
      theme: { title: 'ordergate API reference' },
    });
  });
}

/** make's value, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * An object that stands for make's value, made when a property of it is first read: @fastify/swagger
 * takes the document when registered but only reads it when /docs/json or /docs/yaml is requested.
 */
function builtWhenRead(make: () => object): object {
  return new Proxy(
    {},
    {
      get: (_, key): unknown => Reflect.get(make(), key),
      has: (_, key) => Reflect.has(make(), key),
      ownKeys: () => Reflect.ownKeys(make()),
      getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(make(), key),
      getPrototypeOf: () => Reflect.getPrototypeOf(make()),
    },
  );
}
