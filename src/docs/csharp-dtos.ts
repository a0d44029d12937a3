import type { Casing } from '../wire/negotiation.js';
import { wireName } from './samples.js';
import { optionsHeader, type DtoHeader } from './typescript-dtos.js';
import { routesByPath, type ApiModel, type FieldModel, type OperationModel, type TypeModel, type TypeRef } from './type-model.js';

const VALUE_TYPES = new Set(['integer', 'number', 'boolean', 'date']);

export function csType(t: TypeRef): string {
  switch (t.kind) {
    case 'string':
    case 'enum':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'decimal';
    case 'boolean':
      return 'bool';
    case 'date':
      return 'DateTime';
    case 'any':
    case 'void':
      return 'object';
    case 'array':
      return `List<${csType(t.items)}>`;
    case 'map':
      return `Dictionary<string, ${csType(t.values)}>`;
    case 'named':
      return t.name;
  }
}

const quote = (s: string): string => JSON.stringify(s.replace(/\s+/g, ' '));

function property(f: FieldModel, casing: Casing, isRequest: boolean): string[] {
  // Value types become nullable wherever the wire may omit them or send null: a non-nullable
  // DateTime or decimal would otherwise go out as 0001-01-01 or 0 when the caller leaves it unset.
  const optionalValue = VALUE_TYPES.has(f.type.kind) && (!f.required || f.nullable);
  const attrs: string[] = [];
  const member: string[] = [];
  if (f.description) member.push(`Description=${quote(f.description)}`);
  if (f.required && isRequest) member.push('IsRequired=true');
  if (member.length > 0) attrs.push(`        [ApiMember(${member.join(', ')})]`);
  if (f.type.kind === 'enum') attrs.push(`        [ApiAllowableValues(${quote(f.name)}, ${f.type.values.map(quote).join(', ')})]`);
  return [...attrs, `        public virtual ${csType(f.type)}${optionalValue ? '?' : ''} ${wireName(f.name, casing)} { get; set; }`];
}

function typeClass(t: TypeModel, casing: Casing): string {
  return [
    ...(t.description ? [`    [Description(${quote(t.description)})]`] : []),
    `    public partial class ${t.name}`,
    '    {',
    ...t.fields.flatMap((f) => property(f, casing, false)),
    '    }',
  ].join('\n');
}

const VERB_MARKERS: Record<string, string> = { GET: 'IGet', POST: 'IPost', PUT: 'IPut', PATCH: 'IPatch', DELETE: 'IDelete' };

function requestClass(m: OperationModel, casing: Casing): string {
  const { op } = m;
  const returns = m.response.kind === 'void' ? 'IReturnVoid' : `IReturn<${csType(m.response)}>`;
  return [
    ...routesByPath(op).map((r) => `    [Route(${quote(r.path)}, ${quote(r.verbs)})]`),
    `    [Api(Description=${quote(op.summary)})]`,
    `    [Tag(${quote(op.tag)})]`,
    op.permission === 'any' ? '    // Needs a valid API key, whatever its permissions.' : `    // Needs an API key with the '${op.permission}' permission.`,
    `    public partial class ${op.name}`,
    `        : ${returns}, ${VERB_MARKERS[m.method]}`,
    '    {',
    ...m.request.fields.flatMap((f) => property(f, casing, true)),
    '    }',
  ].join('\n');
}

const CS_OPTIONS = ['GlobalNamespace: Ordergate.ServiceModel', 'MakePartial: True', 'MakeVirtual: True', 'AddReturnMarker: True', 'AddDescriptionAsComments: True', 'AddResponseStatus: False', 'IncludeTypes: ', 'ExcludeTypes: ', 'AddNamespaces: '];

/** ServiceStack's C# "Add ServiceStack Reference": request DTOs with [Route] and IReturn<T>. */
export function csharpDtos(model: ApiModel, casing: Casing, header: DtoHeader): string {
  const classes = [...model.operations.map((m) => requestClass(m, casing)), ...model.types.map((t) => typeClass(t, casing))];
  return [
    optionsHeader(header, CS_OPTIONS),
    '',
    ['using System;', 'using System.Collections;', 'using System.Collections.Generic;', 'using System.ComponentModel;', 'using System.Runtime.Serialization;', 'using ServiceStack;', 'using ServiceStack.DataAnnotations;'].join('\n'),
    '',
    'namespace Ordergate.ServiceModel',
    '{',
    classes.join('\n\n'),
    '}',
    '',
  ].join('\n');
}
