import type { TSchema } from '@sinclair/typebox';
import type { RouteDef } from '../wire/operation.js';
import { openApiComponents } from './openapi-components.js';
import type { OpenApiOptions } from './openapi-options.js';
import { SchemaConverter } from './openapi-schemas.js';
import { requestSample, sampleOf, wireName, type SampleStyle } from './samples.js';
import { requiredFields, type ApiModel, type OperationModel } from './type-model.js';

type Json = Record<string, unknown>;

const pathVariables = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The request property a path variable binds to (case-insensitive, as the binder does). */
function propertyOf(request: TSchema, variable: string): [string, TSchema] | undefined {
  const props = ((request as Json).properties ?? {}) as Record<string, TSchema>;
  return Object.entries(props).find(([n]) => n.toLowerCase() === variable.toLowerCase());
}

/** Parameters carry the description themselves; their schema repeating it only adds noise. */
function withoutDescription(schema: Json): Json {
  const { description: _, ...rest } = schema;
  return rest;
}

function operationId(m: OperationModel, route: RouteDef, index: number): string {
  if (index === 0) return m.op.name;
  const sameVerb = m.op.routes.filter((r) => r.method === route.method).length > 1;
  return `${m.op.name}_${route.method}${sameVerb ? `_${index + 1}` : ''}`;
}

function parameters(m: OperationModel, route: RouteDef, conv: SchemaConverter, style: SampleStyle): { params: Json[]; inPath: Set<string> } {
  const inPath = new Set<string>();
  const params: Json[] = [];
  const required = requiredFields(m.op.request);
  for (const variable of pathVariables(route.path)) {
    const found = propertyOf(m.op.request, variable);
    if (found) inPath.add(found[0]);
    const schema = found ? withoutDescription(conv.convert(found[1])) : { type: 'string' };
    const isArray = found && (found[1] as Json).type === 'array';
    params.push({
      name: variable,
      in: 'path',
      required: true,
      description: found?.[1].description ?? (isArray ? 'Comma-separated list' : undefined),
      schema,
      ...(isArray ? { style: 'simple', explode: false } : {}),
      example: found ? (m.op.example?.[found[0]] ?? sampleOf(found[1], style)) : 'string',
    });
  }
  if (route.method === 'GET' || route.method === 'DELETE') {
    for (const [name, prop] of Object.entries(((m.op.request as Json).properties ?? {}) as Record<string, TSchema>)) {
      if (inPath.has(name)) continue;
      const isArray = (prop as Json).type === 'array';
      params.push({
        name: wireName(name, style.casing),
        in: 'query',
        required: required.has(name),
        description: prop.description,
        schema: withoutDescription(conv.convert(prop)),
        ...(isArray ? { style: 'form', explode: false } : {}),
        // Try-it-out starts from the example (e.g. a Take that keeps a search from returning everything).
        ...(m.op.example?.[name] !== undefined ? { example: m.op.example[name] } : {}),
      });
    }
  }
  return { params: params.map((p) => JSON.parse(JSON.stringify(p)) as Json), inPath };
}

/** The request schema without its path variables: what a body carries. */
function bodySchemaOf(request: TSchema, inPath: ReadonlySet<string>): TSchema {
  const r = request as Json;
  const props = Object.entries((r.properties ?? {}) as Record<string, TSchema>).filter(([n]) => !inPath.has(n));
  const required = [...requiredFields(request)].filter((n) => !inPath.has(n));
  return { type: 'object', properties: Object.fromEntries(props), required } as unknown as TSchema;
}

function requestBody(m: OperationModel, inPath: Set<string>, conv: SchemaConverter, style: SampleStyle): Json {
  const arrayProp = m.op.arrayBody ? propertyOf(m.op.request, m.op.arrayBody) : undefined;
  const body = arrayProp ? arrayProp[1] : bodySchemaOf(m.op.request, inPath);
  const schema = arrayProp ? conv.convert(body) : conv.body(body);
  const required = arrayProp !== undefined || (Array.isArray(schema.required) && schema.required.length > 0);
  const sample = m.op.example ? requestSample(m.op, style) : undefined;
  const example = !sample ? sampleOf(body, style) : arrayProp ? sample[wireName(arrayProp[0], style.casing)] : bodyOf(sample, inPath, style);
  return {
    required,
    description: arrayProp ? `A JSON array: the ${arrayProp[0]} of the request.` : undefined,
    content: { 'application/json': { schema: { title: m.op.name, ...schema }, example } },
  };
}

/** The fields of a request sample that a body carries: all but the path variables. */
function bodyOf(sample: Record<string, unknown>, inPath: ReadonlySet<string>, style: SampleStyle): Record<string, unknown> {
  const path = new Set([...inPath].map((n) => wireName(n, style.casing)));
  return Object.fromEntries(Object.entries(sample).filter(([k]) => !path.has(k)));
}

function responses(m: OperationModel, conv: SchemaConverter, style: SampleStyle): Json {
  const status = String(m.op.successStatus ?? (m.response.kind === 'void' ? 204 : 200));
  const success: Json =
    m.response.kind === 'void'
      ? { description: 'Done; no content.' }
      : { description: 'Success.', content: { 'application/json': { schema: conv.convert(m.op.response), example: sampleOf(m.op.response, style) } } };
  const others = Object.entries(m.op.otherSuccess ?? {}).map(([code, description]): [string, Json] => [code, { ...success, description }]);
  return {
    [status]: success,
    ...Object.fromEntries(others),
    '400': { $ref: '#/components/responses/BadRequest' },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '403': { $ref: '#/components/responses/Forbidden' },
    ...(m.op.notFound ? { '404': { $ref: '#/components/responses/NotFound', description: m.op.notFound } } : {}),
    default: { $ref: '#/components/responses/Error' },
  };
}

function operation(m: OperationModel, route: RouteDef, index: number, conv: SchemaConverter, style: SampleStyle): Json {
  const { params, inPath } = parameters(m, route, conv, style);
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const permission =
    m.op.permission === 'any'
      ? 'Needs a valid API key, whatever its permissions.'
      : m.op.permission === 'fulfilment'
        ? 'Needs an API key with the `fulfilment` or the `admin` permission.'
        : `Needs an API key with the \`${m.op.permission}\` permission.`;
  return JSON.parse(
    JSON.stringify({
      operationId: operationId(m, route, index),
      tags: [m.op.tag],
      summary: m.op.summary,
      description: [m.op.description, permission, `ServiceStack clients: \`${m.op.name}\` at \`/api/${m.op.name}\` or \`/json/reply/${m.op.name}\`.`].filter(Boolean).join('\n\n'),
      parameters: params.length > 0 ? params : undefined,
      requestBody: hasBody ? requestBody(m, inPath, conv, style) : undefined,
      responses: responses(m, conv, style),
      'x-permission': m.op.permission,
    }),
  ) as Json;
}

/** The OpenAPI 3.1 document of the whole operation table: every custom route of every operation. */
export function openApiDocument(model: ApiModel, options: OpenApiOptions): Json {
  const conv = new SchemaConverter(model.typeNames, options.casing);
  const paths: Record<string, Json> = {};
  for (const m of model.operations) {
    m.op.routes.forEach((route, i) => {
      const item = (paths[route.path] ??= {});
      item[route.method.toLowerCase()] = operation(m, route, i, conv, options);
    });
  }
  const schemas: Json = {};
  for (const t of model.types) schemas[t.name] = { title: t.name, ...conv.body(t.schema), example: sampleOf(t.schema, options) };
  // Tags in table order, operator-only tags last: integrators look for the spec's operations first.
  const operatorOnly = (tag: string) => model.operations.every((m) => m.op.tag !== tag || m.op.permission === 'admin');
  const names = [...new Set(model.operations.map((m) => m.op.tag))];
  const tags = [...names.filter((n) => !operatorOnly(n)), ...names.filter(operatorOnly)].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    ...openApiComponents(options, schemas),
    servers: [{ url: options.basePath || '/', description: 'This service' }],
    tags,
    paths,
  };
}
