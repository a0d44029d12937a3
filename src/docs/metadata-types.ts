import { toCamel } from '../wire/serializer.js';
import type { Casing } from '../wire/negotiation.js';
import { wireName } from './samples.js';
import { csType } from './csharp-dtos.js';
import type { ApiModel, FieldModel, TypeModel, TypeRef } from './type-model.js';

const NAMESPACE = 'Ordergate.ServiceModel';

/** ServiceStack's type reference: `List`1` with generic args, or a plain name. */
function typeName(t: TypeRef): { Type: string; GenericArgs?: string[] } {
  if (t.kind === 'array') return { Type: 'List`1', GenericArgs: [csType(t.items)] };
  if (t.kind === 'map') return { Type: 'Dictionary`2', GenericArgs: ['String', csType(t.values)] };
  const cs = csType(t);
  return { Type: { int: 'Int32', decimal: 'Decimal', bool: 'Boolean', string: 'String', object: 'Object' }[cs] ?? cs };
}

const VALUE_KINDS = new Set(['integer', 'number', 'boolean', 'date']);

function property(f: FieldModel, casing: Casing): Record<string, unknown> {
  return {
    Name: wireName(f.name, casing),
    ...typeName(f.type),
    IsValueType: VALUE_KINDS.has(f.type.kind) || undefined,
    IsRequired: f.required || undefined,
    IsNullable: f.nullable || undefined,
    Description: f.description,
    AllowableValues: f.type.kind === 'enum' ? f.type.values : undefined,
  };
}

function metadataType(t: TypeModel, casing: Casing): Record<string, unknown> {
  return { Name: t.name, Namespace: NAMESPACE, Description: t.description, Properties: t.fields.map((f) => property(f, casing)) };
}

/**
 * `/types/metadata`: ServiceStack's MetadataTypes document (operations with routes, request and
 * response types, and every type they use), in the deployment's JSON casing.
 */
export function metadataTypes(model: ApiModel, casing: Casing, baseUrl: string): unknown {
  const doc = {
    Config: { BaseUrl: baseUrl, UsePath: '/types/metadata' },
    Namespaces: [NAMESPACE],
    Operations: model.operations.map((m) => ({
      Request: { ...metadataType(m.request, casing), Description: m.op.summary, Notes: m.op.description },
      Response: m.response.kind === 'void' ? undefined : { Name: csType(m.response), Namespace: NAMESPACE },
      ReturnsVoid: m.response.kind === 'void' || undefined,
      ReturnType: m.response.kind === 'void' ? undefined : typeName(m.response),
      Actions: [...new Set(m.op.routes.map((r) => r.method))],
      Method: m.method,
      Routes: m.op.routes.map((r) => ({ Path: r.path, Verbs: r.method })),
      Tags: [m.op.tag],
      RequiresAuthentication: true,
      // ServiceStack lists no permission for a route any authenticated caller may use.
      RequiredPermissions: m.op.permission === 'any' ? [] : [m.op.permission],
      SuccessStatus: m.op.successStatus ?? (m.response.kind === 'void' ? 204 : 200),
    })),
    Types: model.types.map((t) => metadataType(t, casing)),
  };
  // Undefined members drop out in JSON, as ServiceStack omits unset metadata.
  const plain = JSON.parse(JSON.stringify(doc)) as unknown;
  return casing === 'camel' ? toCamel(plain) : plain;
}
