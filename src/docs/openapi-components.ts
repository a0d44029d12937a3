import { missingPermission, orderNotFound, unauthenticated, type AppError } from '../errors.js';
import { WIRE_DATE_SCHEMA, ref } from './openapi-schemas.js';
import { wireName } from './samples.js';
import type { OpenApiOptions } from './openapi-options.js';

type Json = Record<string, unknown>;

const DESCRIPTION = `Order and customer HTTP+JSON service, wire-compatible with ServiceStack clients.

**Authentication**: every operation needs an API key, sent as \`Authorization: Bearer <key>\` or as HTTP Basic
with the key as user name and an empty password (\`curl -u KEY: …\`). Use *Authorize* to try operations here.

**Dates**: responses write \`\\/Date(<ms>-0000)\\/\` (ServiceStack's JSON date; ms since the Unix epoch, UTC);
\`?jsconfig=DateHandler:ISO8601\` switches a response to ISO 8601. Requests accept both forms and plain dates.

**Formats**: JSON. Also \`.json\` path suffix, \`?format=json\`, JSONP with \`?callback=fn\`, and
\`?jsconfig=EmitCamelCaseNames:true\` for camelCase names. Property names in requests are case-insensitive.

**ServiceStack routes**: every operation is also served at \`/api/<Operation>\` and \`/json/reply/<Operation>\`
(batches: \`POST /api/<Operation>[]\` with a JSON array), which is what \`JsonServiceClient\` calls.
Typed DTOs: \`/types/typescript\`, \`/types/csharp\`; an index of operations: \`/metadata\`.

**Errors**: every error has the \`ResponseStatus\` body; validation failures list one entry per field in \`Errors\`.`;

function errorSchemas(o: OpenApiOptions): Json {
  const n = (s: string) => wireName(s, o.casing);
  return {
    ResponseError: {
      type: 'object',
      description: 'One failing field.',
      properties: {
        [n('ErrorCode')]: { type: 'string', description: 'FluentValidation code such as NotEmpty, Email, Length, Enum; or SerializationException.' },
        [n('FieldName')]: { type: 'string', description: 'The property, nested ones with a dot (Payment.Amount).' },
        [n('Message')]: { type: 'string' },
      },
      required: [n('ErrorCode'), n('FieldName'), n('Message')],
    },
    ResponseStatus: {
      type: 'object',
      properties: {
        [n('ErrorCode')]: { type: 'string', description: 'The first error\'s code (NotFound, Unauthorized, Forbidden, Conflict, NotEmpty, …).' },
        [n('Message')]: { type: 'string' },
        [n('Errors')]: { type: 'array', items: ref('ResponseError') },
      },
      required: [n('ErrorCode'), n('Message'), n('Errors')],
    },
    ErrorResponse: {
      type: 'object',
      description: 'The body of every error response (ServiceStack\'s shape).',
      properties: { [n('ResponseStatus')]: ref('ResponseStatus') },
      required: [n('ResponseStatus')],
    },
  };
}

function errorExample(o: OpenApiOptions, code: string, message: string, errors: Json[] = []): Json {
  const n = (s: string) => wireName(s, o.casing);
  const rename = (e: Json): Json => Object.fromEntries(Object.entries(e).map(([k, v]) => [n(k), v]));
  return { [n('ResponseStatus')]: { [n('ErrorCode')]: code, [n('Message')]: message, [n('Errors')]: errors.map(rename) } };
}

/** The body the service answers for a declared error. */
const exampleOf = (o: OpenApiOptions, err: AppError): Json => errorExample(o, err.code, err.message);

function errorResponse(o: OpenApiOptions, description: string, example: Json, headers?: Json): Json {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: ref('ErrorResponse'), example } } };
}

function responses(o: OpenApiOptions): Json {
  const field = { ErrorCode: 'NotEmpty', FieldName: 'CustomerEMail', Message: "'CustomerEMail' must not be empty." };
  return {
    BadRequest: errorResponse(o, 'Validation failed (one Errors entry per field) or a value could not be read (SerializationException).', errorExample(o, field.ErrorCode, field.Message, [field])),
    Unauthorized: errorResponse(o, 'No API key, or an unknown or revoked one.', exampleOf(o, unauthenticated()), {
      'WWW-Authenticate': { description: 'The accepted schemes.', schema: { type: 'string' } },
    }),
    Forbidden: errorResponse(o, 'The API key lacks the permission the operation needs.', exampleOf(o, missingPermission('admin'))),
    NotFound: errorResponse(o, 'What the path names does not exist.', exampleOf(o, orderNotFound(1))),
    Error: errorResponse(o, 'Any other error: 404 NotFound, 405, 406, 409 Conflict, 413, 415, 422, 429 (Retry-After), 503, 500.', errorExample(o, 'NotFound', 'Not found')),
  };
}

/** Everything of the document except its paths: info, security, shared schemas and responses. */
export function openApiComponents(o: OpenApiOptions, typeSchemas: Json): Json {
  return {
    info: { title: 'ordergate', version: o.version, description: DESCRIPTION },
    security: [{ bearerAuth: [] }, { basicAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <key>`.' },
        basicAuth: { type: 'http', scheme: 'basic', description: 'An API key as the user name, with an empty password.' },
      },
      schemas: { WireDate: WIRE_DATE_SCHEMA, ...errorSchemas(o), ...typeSchemas },
      responses: responses(o),
    },
  };
}
