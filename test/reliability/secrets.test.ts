import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import type { LightMyRequestResponse } from 'fastify';
import { allOperations } from '../../src/operations.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';

const IBAN = 'DE89370400440532013000';
const IBAN_SPACED = 'DE89 3704 0044 0532 0130 00';
const BAD_IBAN = 'DE89370400440532013001';
const BIC = 'COBADEFFXXX';
const BIC8 = 'DEUTDEFF';
const BIC_BRANCH = 'DEUTDEFF500';
const EMAIL = 'jane.secret@example.org';
const SECRETS = [EMAIL, IBAN, BIC, IBAN_SPACED];

/** Every character percent-encoded, letters and digits too: `%43%4F%42…`. */
const percentAll = (s: string): string => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

// Sent in path segments: as the whole segment, as a list item, URL-encoded and fully percent-encoded.
const PATH_SECRETS = [
  EMAIL,
  IBAN_SPACED,
  `${IBAN}?x`,
  BIC,
  BIC8,
  BIC_BRANCH,
  `${BIC}.json`,
  `sec-c1,${BIC}`,
  `${BIC8},${BIC_BRANCH}`,
  percentAll(BIC),
  percentAll(BIC_BRANCH),
  percentAll(IBAN),
  percentAll(EMAIL),
];
// Sent in query strings: plain, as list items, URL-encoded and fully percent-encoded.
const SECRET_QUERY = [
  `Email=${encodeURIComponent(EMAIL)}`,
  `Iban=${IBAN}`,
  `Bic=${BIC}`,
  `Identifiers=sec-c1,${BIC8},${BIC_BRANCH}`,
  `CustomerBic=${percentAll(BIC)}`,
  `CustomerIban=${percentAll(IBAN)}`,
  `CustomerEMail=${percentAll(EMAIL)}`,
  `Spaced=${encodeURIComponent(IBAN_SPACED)}`,
].join('&');

const confirmation = (extra: Record<string, unknown> = {}) => ({
  CustomerFirstName: 'Jane',
  CustomerLastName: 'Secret',
  CustomerPostalCode: '10115',
  CustomerCity: 'Berlin',
  CustomerCountry: 'DE',
  CustomerStreet: 'Hauptstr.',
  CustomerEMail: EMAIL,
  CustomerIban: IBAN,
  CustomerBic: BIC,
  AccountHolderName: 'Jane Secret',
  Payment: { Amount: 12.5, Name: 'SEPA', ReferenceNumber: 'R-1' },
  ...extra,
});

/** A request body that puts a secret into every string property of the operation. */
function secretBody(schema: TSchema): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const body: Record<string, unknown> = {};
  let i = 0;
  for (const [name, s] of Object.entries(props)) {
    const secret = SECRETS[i++ % SECRETS.length]!;
    if (s.type === 'string' || s.type === undefined) body[name] = secret;
    else if (s.type === 'array' && (s.items as TSchema).type === 'string') body[name] = [secret, EMAIL];
    else if (s.type === 'object') body[name] = { Amount: 1, Name: BIC, ReferenceNumber: IBAN, FinancialAccountNumber: IBAN_SPACED };
    else if (s.type === 'array') body[name] = [{ Number: 9301, Value: IBAN }];
  }
  return body;
}

// LOG_LEVEL=trace: the most the service ever logs. Each operation is also sent once with a bad key:
// AUTH_FAILURE_LIMIT=0, so that those failures do not lock the test's address out (429) half-way.
describeEachBackend(
  'secrets never reach the log',
  (t) => {
    test('every operation, run with bank data and e-mail everywhere (fields, path segments, query strings), leaves no key, IBAN, BIC or e-mail in any log line', async () => {
      const app = t();
      const from = app.logs.length;
      const basic = { authorization: `Basic ${Buffer.from(`${app.keys.admin}:`).toString('base64')}` };
      assert.equal((await app.inject({ method: 'PUT', url: '/customer/sec-c1', payload: { FirstName: 'Jane' } })).statusCode, 201);
      assert.equal(
        (await app.inject({ method: 'PUT', url: '/customfields/9301', payload: { Label: 'Bank', FieldType: 'Text' } })).statusCode,
        201,
      );
      const ops = allOperations(app.store, app.app.writes, app.config);
      const answers: LightMyRequestResponse[] = [];
      for (const op of ops) {
        const { OrderId } = json<{ OrderId: number }>(await app.inject({ method: 'POST', url: '/orders', payload: {} }));
        const body = secretBody(op.request);
        for (const route of op.routes) {
          // Path segments are identifiers and are logged (decoded); e-mail addresses, IBANs and BICs in
          // them are masked. Each secret goes into the customer id and the custom-field list, and then
          // into every placeholder of the route.
          const payload = route.method === 'GET' || route.method === 'DELETE' ? undefined : body;
          const urls: string[] = [];
          for (const segment of ['sec-c1', ...PATH_SECRETS]) {
            const encoded = segment.includes('%') ? segment : encodeURIComponent(segment);
            urls.push(
              route.path
                .replace('{CustomerId}', encoded)
                .replace('{OrderId}', String(OrderId))
                .replace('{Number}', '9301')
                .replace('{CustomFieldNumbers}', `9301,${encoded}`),
            );
            if (segment !== 'sec-c1' && /\{(?:OrderId|Number)\}/.test(route.path)) urls.push(route.path.replace(/\{[A-Za-z]+\}/g, encoded));
          }
          for (const url of urls) {
            const query = `?${SECRET_QUERY}&apikey=${app.keys.admin}`;
            answers.push(await app.inject({ method: route.method, url: url + query, ...(payload ? { payload } : {}) }));
            answers.push(await app.inject({ method: route.method, url, headers: basic, ...(payload ? { payload } : {}) }));
          }
        }
        answers.push(
          await app.inject({ method: 'POST', url: `/api/${op.name}`, payload: { ...body, OrderId, CustomerId: 'sec-c1', Number: 9301 } }),
        );
        answers.push(await app.inject({ method: 'POST', url: `/json/reply/${op.name}[]`, payload: [body] }));
        answers.push(
          await app.inject({
            method: 'GET',
            url: `/api/${op.name}?CustomerEMail=${encodeURIComponent(EMAIL)}&CustomerIban=${IBAN}`,
            headers: bearer(`og_${IBAN}_${EMAIL}`),
          }),
        );
        answers.push(await app.inject({ method: 'GET', url: `/api/${op.name}?${SECRET_QUERY}` }));
      }
      assert.ok(
        answers.some((a) => a.statusCode < 300) && answers.some((a) => a.statusCode >= 400),
        'both successes and failures were logged',
      );

      // ConfirmOrder with real bank data: accepted, replayed, shown masked; and refused for a bad IBAN.
      const { OrderId } = json<{ OrderId: number }>(await app.inject({ method: 'POST', url: '/orders', payload: {} }));
      const ok = await app.inject({
        method: 'POST',
        url: `/orders/${OrderId}/confirm`,
        headers: { 'idempotency-key': `k-${IBAN}` },
        payload: confirmation(),
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const again = await app.inject({
        method: 'POST',
        url: `/orders/${OrderId}/confirm`,
        headers: { 'idempotency-key': `k-${IBAN}` },
        payload: confirmation(),
      });
      assert.equal(again.statusCode, 200);
      const conflict = await app.inject({
        method: 'POST',
        url: `/orders/${OrderId}/confirm`,
        payload: confirmation({ CustomerCity: 'Bonn' }),
      });
      assert.equal(conflict.statusCode, 409);
      const shown = await app.inject(`/orders/${OrderId}`);
      assert.equal(json(shown).Confirmation.CustomerIban, 'DE89********3000');
      const { OrderId: other } = json<{ OrderId: number }>(await app.inject({ method: 'POST', url: '/orders', payload: {} }));
      const bad = await app.inject({
        method: 'POST',
        url: `/orders/${other}/confirm`,
        payload: confirmation({ CustomerIban: BAD_IBAN, CustomerBic: 'NOT A BIC', CustomerEMail: 'not-an-email' }),
      });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(
        json(bad)
          .ResponseStatus.Errors.map((e: { FieldName: string }) => e.FieldName)
          .sort(),
        ['CustomerBic', 'CustomerEMail', 'CustomerIban'],
      );
      for (const res of [ok, again, conflict, shown, bad]) {
        for (const secret of [IBAN, BAD_IBAN, IBAN_SPACED])
          assert.ok(!res.body.includes(secret), `an answer echoes the IBAN: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }

      const lines = app.logs.slice(from);
      assert.ok(lines.length > answers.length * 2, `every request was logged (${lines.length} lines)`);
      const keys = Object.values(app.keys);
      for (const line of lines) {
        for (const secret of [
          ...SECRETS,
          BIC8,
          BAD_IBAN,
          'example.org',
          ...keys,
          ...keys.map((k) => k.slice(12)),
          `og_${IBAN}`,
          ...[BIC, BIC_BRANCH, IBAN, EMAIL].map(percentAll),
        ]) {
          assert.ok(!line.includes(secret), `'${secret}' in log line: ${line}`);
        }
      }
    });
  },
  { LOG_LEVEL: 'trace', AUTH_FAILURE_LIMIT: '0' },
);
