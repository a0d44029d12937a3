import type { Casing } from '../wire/negotiation.js';
import { wireName } from './samples.js';
import { routesByPath, type ApiModel, type FieldModel, type OperationModel, type TypeModel, type TypeRef } from './type-model.js';

/** What the header of a generated DTO file says (ServiceStack's "Options" block). */
export interface DtoHeader {
  readonly baseUrl: string;
  readonly version: string;
  readonly date: Date;
}

export function optionsHeader(h: DtoHeader, options: readonly string[]): string {
  const stamp = h.date.toISOString().slice(0, 19).replace('T', ' ');
  return [
    '/* Options:',
    `Date: ${stamp}`,
    `Version: ${h.version}`,
    'Tip: To override a DTO option, remove "//" prefix before updating',
    `BaseUrl: ${h.baseUrl}`,
    '',
    ...options.map((o) => `//${o}`),
    '*/',
  ].join('\n');
}

export function tsType(t: TypeRef): string {
  switch (t.kind) {
    case 'string':
    case 'date':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'any':
      return 'any';
    case 'void':
      return 'void';
    case 'enum':
      return t.values.map((v) => JSON.stringify(v)).join(' | ') || 'string';
    case 'array': {
      const inner = tsType(t.items);
      return t.items.kind === 'enum' ? `(${inner})[]` : `${inner}[]`;
    }
    case 'map':
      return `{ [index: string]: ${tsType(t.values)}; }`;
    case 'named':
      return t.name;
  }
}

const comment = (text: string | undefined, indent: string): string[] =>
  text ? [`${indent}/** @description ${text.replace(/\*\//g, '* /').replace(/\s+/g, ' ')} */`] : [];

function property(f: FieldModel, casing: Casing, isRequest: boolean): string[] {
  // Requests: only required fields are non-optional. Responses: every documented field is present.
  const optional = isRequest ? !f.required : !f.required && !f.nullable;
  const type = tsType(f.type) + (f.nullable && !isRequest ? ' | null' : '');
  return [...comment(f.description, '    '), `    public ${wireName(f.name, casing)}${optional ? '?' : '!'}: ${type};`];
}

const constructorLine = (name: string): string =>
  `    public constructor(init?: Partial<${name}>) { (Object as any).assign(this, init); }`;

function typeClass(t: TypeModel, casing: Casing): string {
  return [...comment(t.description, ''), `export class ${t.name}`, '{', ...t.fields.flatMap((f) => property(f, casing, false)), '', constructorLine(t.name), '}'].join('\n');
}

function createResponse(r: TypeRef): string {
  if (r.kind === 'void') return '{}';
  if (r.kind === 'named') return `{ return new ${r.name}(); }`;
  if (r.kind === 'array') return `{ return new Array<${tsType(r.items)}>(); }`;
  return '{ return {} as any; }';
}

const VERB_MARKERS: Record<string, string> = { GET: 'IGet', POST: 'IPost', PUT: 'IPut', PATCH: 'IPatch', DELETE: 'IDelete' };

function requestClass(m: OperationModel, casing: Casing): string {
  const { op } = m;
  const returns = m.response.kind === 'void' ? 'IReturnVoid' : `IReturn<${tsType(m.response)}>`;
  const routes = routesByPath(op).map((r) => `// @Route("${r.path}", "${r.verbs}")`);
  return [
    ...comment(op.summary + (op.description ? ' ' + op.description : ''), ''),
    ...routes,
    `// @Api(Description="${op.summary.replace(/"/g, "'")}")`,
    `export class ${op.name} implements ${returns}, ${VERB_MARKERS[m.method]}`,
    '{',
    ...m.request.fields.flatMap((f) => property(f, casing, true)),
    '',
    constructorLine(op.name),
    `    public getTypeName() { return '${op.name}'; }`,
    `    public getMethod() { return '${m.method}'; }`,
    `    public createResponse() ${createResponse(m.response)}`,
    '}',
  ].join('\n');
}

const PRELUDE = `export interface IReturn<T>
{
    createResponse(): T;
}

export interface IReturnVoid
{
    createResponse(): void;
}

export interface IGet {}
export interface IPost {}
export interface IPut {}
export interface IPatch {}
export interface IDelete {}`;

function errorTypes(casing: Casing): string {
  const n = (s: string) => wireName(s, casing);
  return `export class ResponseError
{
    public ${n('ErrorCode')}!: string;
    public ${n('FieldName')}!: string;
    public ${n('Message')}!: string;
    public ${n('Meta')}?: { [index: string]: string; };

    public constructor(init?: Partial<ResponseError>) { (Object as any).assign(this, init); }
}

export class ResponseStatus
{
    public ${n('ErrorCode')}!: string;
    public ${n('Message')}!: string;
    public ${n('StackTrace')}?: string;
    public ${n('Errors')}!: ResponseError[];
    public ${n('Meta')}?: { [index: string]: string; };

    public constructor(init?: Partial<ResponseStatus>) { (Object as any).assign(this, init); }
}

/** @description The body of every error response. */
export class ErrorResponse
{
    public ${n('ResponseStatus')}!: ResponseStatus;

    public constructor(init?: Partial<ErrorResponse>) { (Object as any).assign(this, init); }
}`;
}

const TS_OPTIONS = ['GlobalNamespace: ', 'MakePropertiesOptional: False', 'AddServiceStackTypes: True', 'AddResponseStatus: False', 'AddDescriptionAsComments: True', 'IncludeTypes: ', 'ExcludeTypes: ', 'DefaultImports: '];

/**
 * ServiceStack's "Add ServiceStack Reference" TypeScript: a dependency-free module of DTO classes
 * that `JsonServiceClient`/`JsonApiClient` accept as they are.
 */
export function typescriptDtos(model: ApiModel, casing: Casing, header: DtoHeader): string {
  return [
    optionsHeader(header, TS_OPTIONS),
    PRELUDE,
    errorTypes(casing),
    ...model.types.map((t) => typeClass(t, casing)),
    ...model.operations.map((m) => requestClass(m, casing)),
  ].join('\n\n') + '\n';
}
