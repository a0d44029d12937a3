import { Type } from '@sinclair/typebox';
import type { Store } from '../../src/store/store.js';
import { defineOperation, type AnyOperation } from '../../src/wire/operation.js';
import { wireDate } from '../../src/wire/serializer.js';
import { WireDate } from '../../src/wire/schema-types.js';

const EchoFields = {
  Id: Type.Optional(Type.Integer()),
  Name: Type.Optional(Type.String()),
  Amount: Type.Optional(Type.Number()),
  Flag: Type.Optional(Type.Boolean()),
  When: Type.Optional(WireDate()),
  Numbers: Type.Optional(Type.Array(Type.Integer())),
  Names: Type.Optional(Type.Array(Type.String())),
  Dates: Type.Optional(Type.Array(WireDate())),
  Nested: Type.Optional(Type.Object({ Inner: Type.Optional(Type.Integer()), At: Type.Optional(WireDate()) })),
};

const EchoRequest = Type.Object(EchoFields);

const EchoResponse = Type.Object({
  ...EchoFields,
  /** What the JSON body alone said. */
  BodyFields: Type.Unknown(),
  DateStyle: Type.String(),
});

const SECRET_EMAIL = 'leaked.person@example.org';
const SECRET_IBAN = 'DE89370400440532013000';
/** Text an internal error carries: SQL, a file path, an e-mail address and an IBAN. */
export const INTERNAL_ERROR_TEXT = `insert into "orders" ("iban") values ($1) failed for ${SECRET_EMAIL} ${SECRET_IBAN} at /srv/app/x.js`;

/**
 * Test-only operations, added to a test app with `createTestApp(backend, env, { extraOperations:
 * wireTestOperations })`: `Echo` returns what the wire layer bound (dates back in the request's
 * date style), `Explode` throws an unexpected error.
 */
export function wireTestOperations(_store: Store): AnyOperation[] {
  return [
    defineOperation({
      name: 'Echo',
      tag: 'Test',
      summary: 'Returns the bound request.',
      routes: [
        { method: 'GET', path: '/echo' },
        { method: 'POST', path: '/echo' },
        { method: 'GET', path: '/echo/{Id}' },
        { method: 'POST', path: '/echo/{Id}' },
        { method: 'GET', path: '/echo/at/{When}' },
        { method: 'GET', path: '/echo/list/{Numbers}' },
        { method: 'GET', path: '/echo/lower/{id}/{name}' },
      ],
      permission: 'all',
      request: EchoRequest,
      response: EchoResponse,
      async handle(req, call) {
        return {
          ...req,
          When: req.When === undefined ? undefined : wireDate(req.When),
          Dates: req.Dates?.map((d) => wireDate(d)),
          Nested: req.Nested ? { ...req.Nested, At: req.Nested.At === undefined ? undefined : wireDate(req.Nested.At) } : undefined,
          BodyFields: call.bodyFields ?? null,
          DateStyle: call.dateStyle,
        };
      },
    }),
    defineOperation({
      name: 'Explode',
      tag: 'Test',
      summary: 'Fails unexpectedly.',
      routes: [{ method: 'GET', path: '/explode' }],
      permission: 'all',
      request: Type.Object({}),
      response: Type.Object({}),
      async handle() {
        throw new Error(INTERNAL_ERROR_TEXT);
      },
    }),
  ];
}
