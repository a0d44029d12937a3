import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CUSTOMER_FIELDS } from '../../src/customers/customer.schemas.js';
import { describeOnce, json } from '../helpers/test-app.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';
import { wireTestOperations } from '../helpers/wire-test-operations.js';

const camel = (s: string): string => s[0]!.toLowerCase() + s.slice(1);

describeOnce(
  'response formats',
  (t) => {
    test('PascalCase by default; ?jsconfig=EmitCamelCaseNames:true switches to camelCase, errors included', async () => {
      await t().inject({ method: 'PUT', url: '/customer/fmt-1', payload: { FirstName: 'A' } });
      const pascal = json(await t().inject('/customer/?Identifiers=fmt-1'));
      assert.deepEqual(Object.keys(pascal[0]), [...CUSTOMER_FIELDS]);
      const camelRes = json(await t().inject('/customer/?Identifiers=fmt-1&jsconfig=EmitCamelCaseNames:true'));
      assert.deepEqual(Object.keys(camelRes[0]), CUSTOMER_FIELDS.map(camel));
      assert.equal(camelRes[0].firstName, 'A');
      const err = await t().inject('/customer/?Take=x&jsconfig=EmitCamelCaseNames:true');
      assert.equal(err.statusCode, 400);
      assert.deepEqual(json(err), {
        responseStatus: {
          errorCode: 'SerializationException',
          message: "Unable to bind to request 'SearchCustomers'",
          errors: [{ errorCode: 'SerializationException', fieldName: 'Take', message: "'x' is an Invalid value for 'Take'" }],
        },
      });
      const notFound = json(await t().inject('/nowhere?jsconfig=EmitCamelCaseNames:true'));
      assert.equal(notFound.responseStatus.errorCode, 'NotFound');
    });

    test('a .json suffix selects JSON on any route, with a query string and on nested paths', async () => {
      await t().inject({ method: 'PUT', url: '/customer/fmt-2', payload: {} });
      for (const url of [
        '/customer.json?Identifiers=fmt-2',
        '/customer/.json?Identifiers=fmt-2',
        '/CUSTOMER.JSON?Identifiers=fmt-2',
        '/api/SearchCustomers.json?Identifiers=fmt-2',
      ]) {
        const res = await t().inject(url);
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(json(res)[0].CustomerId, 'fmt-2', url);
      }
      const put = await t().inject({ method: 'PUT', url: '/customer/fmt-3.json?City=Bonn', payload: { FirstName: 'N' } });
      assert.equal(put.statusCode, 201, put.body);
      assert.deepEqual([json(put).CustomerId, json(put).City, json(put).FirstName], ['fmt-3', 'Bonn', 'N']);
      assert.deepEqual(json(await t().inject('/echo/list/1,2.json')).Numbers, [1, 2]);
    });

    test('?format=json and Accept: application/json or */* give JSON; unknown formats are ignored', async () => {
      for (const [url, accept] of [
        ['/customer/?Identifiers=x&format=json', undefined],
        ['/customer/?Identifiers=x&format=JSON', undefined],
        ['/customer/?Identifiers=x&format=html', undefined],
        ['/customer/?Identifiers=x', 'application/json'],
        ['/customer/?Identifiers=x', '*/*'],
        ['/customer/?Identifiers=x', 'text/html,application/xhtml+xml'],
        ['/customer/?Identifiers=x', 'application/xml;q=0.9, application/json'],
        ['/customer/?Identifiers=x&format=json', 'application/xml'],
      ] as const) {
        const res = await t().inject({ url, headers: accept ? { accept } : {} });
        assert.equal(res.statusCode, 200, `${url} ${accept}`);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.deepEqual(json(res), []);
      }
    });

    test('xml, jsv and csv → 406 NotAcceptable, by suffix, ?format= and Accept', async () => {
      for (const [url, accept] of [
        ['/customer.xml', undefined],
        ['/customer/.jsv', undefined],
        ['/customer.csv?Identifiers=x', undefined],
        ['/api/SearchCustomers.xml', undefined],
        ['/customer/?format=xml', undefined],
        ['/customer/?format=JSV', undefined],
        ['/customer/?format=csv', undefined],
        ['/customer/', 'application/xml'],
        ['/customer/', 'text/xml'],
        ['/customer/', 'text/jsv'],
        ['/customer/', 'text/csv'],
        ['/customer/', 'text/csv, application/xml'],
      ] as const) {
        const res = await t().inject({ url, headers: accept ? { accept } : {} });
        assertResponseStatus(res, 406, 'NotAcceptable');
      }
      const put = await t().inject({ method: 'PUT', url: '/customer/fmt-4.xml', payload: {} });
      assertResponseStatus(put, 406, 'NotAcceptable');
      assert.deepEqual(json(await t().inject('/customer/?Identifiers=fmt-4')), [], 'a refused format changes nothing');
    });

    test('JSONP: fn(<json>) exactly, text/javascript, sanitized callback, errors wrapped with 200', async () => {
      await t().inject({ method: 'PUT', url: '/customer/fmt-5', payload: {} });
      const plain = await t().inject('/customer/?Identifiers=fmt-5');
      const res = await t().inject('/customer/?Identifiers=fmt-5&callback=handle');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(res.body, `handle(${plain.body})`);
      const odd = await t().inject(`/customer/?Identifiers=fmt-5&callback=${encodeURIComponent('a.b_c1</script><x y="1">;alert(1)//')}`);
      assert.equal(odd.body, `a.b_c1__script__x_y__1___alert_1___(${plain.body})`);
      const suffix = await t().inject('/customer.json?Identifiers=fmt-5&callback=cb');
      assert.equal(suffix.body, `cb(${plain.body})`, 'a .json suffix keeps JSONP');
      const err = await t().inject('/customer/?Take=x&callback=cb');
      assert.equal(err.statusCode, 200);
      assert.equal(err.headers['content-type'], 'text/javascript; charset=utf-8');
      const m = /^cb\((.*)\)$/s.exec(err.body);
      assert.ok(m, err.body);
      assert.equal(JSON.parse(m[1]!).ResponseStatus.ErrorCode, 'SerializationException');
      const unauth = await t().inject({ url: '/customer/?callback=cb', headers: { authorization: undefined as unknown as string } });
      assert.equal(unauth.statusCode, 200);
      assert.match(unauth.body, /^cb\(\{"ResponseStatus":\{"ErrorCode":"Unauthorized"/);
      const missing = await t().inject('/no/such/route?callback=cb');
      assert.match(missing.body, /^cb\(\{"ResponseStatus":\{"ErrorCode":"NotFound"/);
      const dates = await t().inject('/echo?When=/Date(5)/&callback=cb');
      assert.ok(dates.body.startsWith('cb({') && dates.body.includes('"When":"\\/Date(5-0000)\\/"'), dates.body);
    });

    test('Vary: Accept on every JSON answer; X-Request-Id echoed or generated', async () => {
      for (const url of ['/customer/?Identifiers=x', '/customer/?Take=x', '/nowhere', '/customer.xml']) {
        const res = await t().inject(url);
        assert.equal(res.headers.vary, 'Accept', url);
        assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, url);
      }
      const a = await t().inject('/customer/?Identifiers=x');
      const b = await t().inject('/customer/?Identifiers=x');
      assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
      for (const url of ['/customer/?Identifiers=x', '/nowhere', '/customer/%E0%A4%A']) {
        const res = await t().inject({ url, headers: { 'x-request-id': 'client-req-42' } });
        assert.equal(res.headers['x-request-id'], 'client-req-42', url);
      }
      // An implausible id (too long, spaces, quotes) is replaced rather than echoed and logged.
      for (const given of ['x'.repeat(129), 'two words', 'a"b', '']) {
        const res = await t().inject({ url: '/customer/?Identifiers=x', headers: { 'x-request-id': given } });
        assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/, JSON.stringify(given));
      }
    });
  },
  {},
  { extraOperations: wireTestOperations },
);

describeOnce(
  'response formats with JSON_CASING=camel',
  (t) => {
    test('camelCase by default, errors too; EmitCamelCaseNames:false switches back per request', async () => {
      await t().inject({ method: 'PUT', url: '/customer/fmt-c1', payload: { lastName: 'L' } });
      const res = json(await t().inject('/customer/?identifiers=fmt-c1'));
      assert.deepEqual(Object.keys(res[0]), CUSTOMER_FIELDS.map(camel));
      assert.equal(res[0].lastName, 'L');
      assert.equal(json(await t().inject('/customer/?take=x')).responseStatus.errors[0].fieldName, 'Take');
      const pascal = json(await t().inject('/customer/?identifiers=fmt-c1&jsconfig=EmitCamelCaseNames:false'));
      assert.deepEqual(Object.keys(pascal[0]), [...CUSTOMER_FIELDS]);
    });
  },
  { JSON_CASING: 'camel' },
);
