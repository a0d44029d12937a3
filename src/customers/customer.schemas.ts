import { Type, type Static } from '@sinclair/typebox';
import { LIST_LENGTH, NAME_LENGTH, withRules } from '../wire/request-schema.js';
import { Nullable, WireDate } from '../wire/schema-types.js';
import { TextQuery, textQueryRule } from '../wire/text-query.js';
import { cursorIssuedHere } from '../wire/sync-cursor.js';

/** The 14 spec fields, in the spec's order. */
export const CUSTOMER_FIELDS = [
  'CustomerId',
  'ExternalId',
  'Salutation',
  'FirstName',
  'LastName',
  'PostalCode',
  'City',
  'Country',
  'Street',
  'StreetNumber',
  'Company',
  'Company2',
  'AdditionToAddress',
  'Quarter',
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

const str = (description: string) => Nullable(Type.String({ description }));

/** Customer as every response shows it: exactly the 14 spec fields, strings or null. */
export const Customer = Type.Object(
  {
    CustomerId: Type.String({ description: 'Id of the customer.' }),
    ExternalId: str('Identifier of the customer in an external system (ERP, shop).'),
    Salutation: str('Salutation.'),
    FirstName: str('First name.'),
    LastName: str('Last name.'),
    PostalCode: str('Postal code.'),
    City: str('City.'),
    Country: str('Country.'),
    Street: str('Street.'),
    StreetNumber: str('Street number.'),
    Company: str('Company.'),
    Company2: str('Second company line.'),
    AdditionToAddress: str('Addition to the address.'),
    Quarter: str('Quarter (district).'),
  },
  { $id: 'Customer', additionalProperties: false },
);
export type Customer = Static<typeof Customer>;

export const SearchCustomersRequest = withRules(
  Type.Object(
    {
      Identifiers: Type.Optional(
        Type.Array(Type.String({ maxLength: NAME_LENGTH }), {
          description: 'Customer ids or external ids; each matches exactly. Empty or omitted: no identifier filter.',
          maxItems: LIST_LENGTH,
        }),
      ),
      LastModifiedAfter: Type.Optional(
        WireDate({
          description:
            'Only customers modified strictly after this date. Pass the X-Sync-Watermark of the previous answer to sync incrementally.',
        }),
      ),
      Take: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            'Page size (optional; the whole result is returned by default). When rows remain, the X-Sync-Cursor header continues after this page.',
        }),
      ),
      Skip: Type.Optional(
        Type.Integer({
          minimum: 0,
          description: 'Rows to skip before the page (for browsing; a sync pages with Cursor, as Skip does not advance the watermark).',
        }),
      ),
      Cursor: Type.Optional(
        Type.String({ description: 'The X-Sync-Cursor header of the previous page: continue right after its last row.' }),
      ),
      Query: TextQuery('the CustomerId, ExternalId, FirstName, LastName, Company, PostalCode or City'),
    },
    { $id: 'SearchCustomers' },
  ),
  { Cursor: cursorIssuedHere, Query: textQueryRule },
);
export type SearchCustomersRequest = Static<typeof SearchCustomersRequest>;

/** A customer field of a request: optional, at most NAME_LENGTH characters. */
const field = () => Type.Optional(Type.String({ maxLength: NAME_LENGTH }));

export const UpsertCustomerRequest = Type.Object(
  {
    CustomerId: Type.String({ description: 'Id of the customer (path).', maxLength: NAME_LENGTH }),
    ExternalId: field(),
    Salutation: field(),
    FirstName: field(),
    LastName: field(),
    PostalCode: field(),
    City: field(),
    Country: field(),
    Street: field(),
    StreetNumber: field(),
    Company: field(),
    Company2: field(),
    AdditionToAddress: field(),
    Quarter: field(),
  },
  { $id: 'UpsertCustomer' },
);
export type UpsertCustomerRequest = Static<typeof UpsertCustomerRequest>;
