import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOnce, json } from '../helpers/test-app.js';
import { assertResponseStatus } from '../helpers/wire-asserts.js';
import { wireTestOperations } from '../helpers/wire-test-operations.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ids = (res: { body: string }): string[] => (JSON.parse(res.body) as { CustomerId: string }[]).map((c) => c.CustomerId).sort();

describeOnce(
  'wire binding',
  (t) => {
    test('property names match case-insensitively in the JSON body, path, query and form', async () => {
      const body = await t().inject({
        method: 'PUT',
        url: '/customer/bind-1',
        payload: { firstname: 'Ann', EXTERNALID: 'bind-ext-1', cItY: 'Köln' },
      });
      assert.equal(body.statusCode, 201, body.body);
      assert.equal(json(body).FirstName, 'Ann');
      assert.equal(json(body).ExternalId, 'bind-ext-1');
      assert.equal(json(body).City, 'Köln');
      const form = await t().inject({
        method: 'PUT',
        url: '/customer/bind-2',
        headers: FORM,
        payload: 'firstNAME=Bob&externalid=bind-ext-2',
      });
      assert.equal(json(form).FirstName, 'Bob');
      assert.equal(json(form).ExternalId, 'bind-ext-2');
      for (const key of ['Identifiers', 'identifiers', 'IDENTIFIERS', 'iDeNtIfIeRs']) {
        assert.deepEqual(ids(await t().inject(`/customer/?${key}=bind-1,bind-ext-2`)), ['bind-1', 'bind-2'], key);
      }
      const path = await t().inject('/echo/42');
      assert.equal(json(path).Id, 42);
      const lower = json(await t().inject('/ECHO/LOWER/7/Mixed'));
      assert.deepEqual([lower.Id, lower.Name], [7, 'Mixed'], 'route variables {id}/{name} bind Id/Name');
    });

    test('sources bind in order body, path, query (fills only what is unset, except on GET), form', async () => {
      const post = json(
        await t().inject({ method: 'POST', url: '/echo/5?Id=6&Name=fromQuery&Flag=true', payload: { id: 4, name: 'fromBody' } }),
      );
      assert.equal(post.Id, 5, 'path overrides body');
      assert.equal(post.Name, 'fromBody', 'query does not override body on POST');
      assert.equal(post.Flag, true, 'query fills an unset property on POST');
      assert.deepEqual(post.BodyFields, { Id: 4, Name: 'fromBody' });
      const get = json(await t().inject('/echo/5?Id=6'));
      assert.equal(get.Id, 6, 'query overrides path on GET');
      const form = json(await t().inject({ method: 'POST', url: '/echo/5', headers: FORM, payload: 'Id=7&Name=fromForm' }));
      assert.equal(form.Id, 7, 'form overrides path');
      assert.equal(form.Name, 'fromForm');
      assert.equal(form.BodyFields, null, 'a form is not a JSON body');
    });

    test('unknown keys are ignored; reserved query keys do not bind', async () => {
      const res = json(
        await t().inject({
          method: 'POST',
          url: '/echo?format=json&callback=&Unknown=1',
          payload: { Nope: 1, Name: 'n', nested: { inner: 3, other: 4 } },
        }),
      );
      assert.equal(res.Name, 'n');
      assert.deepEqual(res.Nested, { Inner: 3 });
      assert.equal('Nope' in res, false);
      assert.equal('Unknown' in res, false);
    });

    test('JSV lists: a,b and [a,b] and quoted items and repeated keys, in query, path and form', async () => {
      const put = await t().inject({ method: 'PUT', url: '/customer/bind%2C3', payload: {} });
      assert.equal(json(put).CustomerId, 'bind,3', 'a string path variable is not split');
      await t().inject({ method: 'PUT', url: '/customer/bind-4', payload: {} });
      for (const q of [
        'Identifiers=bind-4,"bind,3"',
        'Identifiers=["bind,3",bind-4]',
        'Identifiers=[ "bind,3" , bind-4 ]',
        'Identifiers="bind,3"&Identifiers=bind-4',
        'identifiers="bind,3"&IDENTIFIERS=bind-4',
      ]) {
        assert.deepEqual(ids(await t().inject(`/customer/?${encodeURI(q)}`)), ['bind,3', 'bind-4'], q);
      }
      assert.deepEqual(
        ids(
          await t().inject({ method: 'POST', url: '/customer/', headers: FORM, payload: 'Identifiers=bind-4&Identifiers=%22bind%2C3%22' }),
        ),
        ['bind,3', 'bind-4'],
      );
      for (const q of ['Numbers=1,2,3', 'Numbers=[1,2,3]', 'Numbers=1&Numbers=2&Numbers=3', 'Numbers=1,2&numbers=3']) {
        assert.deepEqual(json(await t().inject(`/echo?${q}`)).Numbers, [1, 2, 3], q);
      }
      assert.deepEqual(json(await t().inject('/echo/list/1,2,3')).Numbers, [1, 2, 3]);
      assert.deepEqual(json(await t().inject('/echo/list/[4,5]')).Numbers, [4, 5]);
      assert.deepEqual(json(await t().inject('/echo?Names="a ""b""",c')).Names, ['a "b"', 'c']);
      assert.deepEqual(json(await t().inject('/echo?Numbers=[]')).Numbers, []);
    });

    test('a repeated scalar query key: the last value wins', async () => {
      assert.equal(json(await t().inject('/echo?Id=1&Id=2')).Id, 2);
      assert.equal(json(await t().inject('/echo?Name=a&name=b')).Name, 'b');
    });

    test('an empty value of a non-string property means unset; an empty string stays a string', async () => {
      const res = json(await t().inject('/echo?Id=&Flag=&When=&Numbers=&Name='));
      assert.equal('Id' in res, false);
      assert.equal('Flag' in res, false);
      assert.equal('When' in res, false);
      assert.deepEqual(res.Numbers, []);
      assert.equal(res.Name, '');
      assert.equal(json(await t().inject('/echo?Id')).Id, undefined);
      await t().inject({ method: 'PUT', url: '/customer/bind-5', payload: {} });
      assert.ok(ids(await t().inject('/customer/?Identifiers=&Take=')).includes('bind-5'), 'empty Identifiers = no filter');
    });

    test('typed values: integers, numbers, booleans from text and from JSON', async () => {
      const q = json(await t().inject('/echo?Id=-12&Amount=1.5e2&Flag=1'));
      assert.deepEqual([q.Id, q.Amount, q.Flag], [-12, 150, true]);
      const b = json(
        await t().inject({ method: 'POST', url: '/echo', payload: { Id: '7', Amount: '2.25', Flag: 'false', Numbers: [1, '2'] } }),
      );
      assert.deepEqual([b.Id, b.Amount, b.Flag, b.Numbers], [7, 2.25, false, [1, 2]]);
      assert.equal(json(await t().inject('/echo?Flag=FALSE')).Flag, false);
    });

    test('a JSON body binds as application/json, text/plain and with no Content-Type', async () => {
      await t().inject({ method: 'PUT', url: '/customer/bind-6', payload: {} });
      const payload = '{"Identifiers":["bind-6"]}';
      for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8', undefined]) {
        const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
        const res = await t().inject({ method: 'POST', url: '/customer/', headers, payload });
        assert.equal(res.statusCode, 200, `${type}: ${res.body}`);
        assert.deepEqual(ids(res), ['bind-6'], String(type));
      }
      const put = await t().inject({
        method: 'PUT',
        url: '/customer/bind-7',
        headers: { 'content-type': 'text/plain' },
        payload: '{"FirstName":"Plain"}',
      });
      assert.equal(json(put).FirstName, 'Plain');
    });

    test('an empty body (or JSON null) binds nothing: the request comes from path and query', async () => {
      for (const payload of ['', '   ', 'null']) {
        const res = await t().inject({ method: 'POST', url: '/echo/9?Name=q', headers: { 'content-type': 'application/json' }, payload });
        assert.equal(res.statusCode, 200, JSON.stringify(payload));
        assert.deepEqual([json(res).Id, json(res).Name, json(res).BodyFields], [9, 'q', null]);
      }
      const get = await t().inject({ method: 'GET', url: '/customer/?Identifiers=none', headers: { 'content-type': 'application/json' } });
      assert.equal(get.statusCode, 200, 'GET with a JSON content type and no body (JsonServiceClient)');
    });

    test('a form body binds, with JSV lists and case-insensitive names', async () => {
      const res = json(
        await t().inject({
          method: 'POST',
          url: '/echo',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
          payload: 'numbers=1,2&NAME=x%20y&When=2024-01-02',
        }),
      );
      assert.deepEqual(res.Numbers, [1, 2]);
      assert.equal(res.Name, 'x y');
      assert.equal(res.When, '/Date(1704153600000-0000)/');
    });

    test('unbindable values → 400 SerializationException naming the field, and nothing changes', async () => {
      assertResponseStatus(await t().inject('/customer/?Take=abc'), 400, 'SerializationException', 'Take');
      assertResponseStatus(await t().inject('/customer/?Take=1.5'), 400, 'SerializationException', 'Take');
      assertResponseStatus(await t().inject('/customer/?LastModifiedAfter=yesterday'), 400, 'SerializationException', 'LastModifiedAfter');
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/customer/', payload: { Identifiers: 'bind-1' } }),
        400,
        'SerializationException',
        'Identifiers',
      );
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/customer/', payload: { take: true } }),
        400,
        'SerializationException',
        'Take',
      );
      assertResponseStatus(await t().inject('/echo/abc'), 400, 'SerializationException', 'Id');
      assertResponseStatus(await t().inject('/echo?Numbers=1,x'), 400, 'SerializationException', 'Numbers');
      assertResponseStatus(await t().inject('/echo?Flag=yes'), 400, 'SerializationException', 'Flag');
      assertResponseStatus(await t().inject('/echo?Id=99999999999999999999'), 400, 'SerializationException', 'Id');
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/echo', headers: FORM, payload: 'Amount=lots' }),
        400,
        'SerializationException',
        'Amount',
      );
      assertResponseStatus(
        await t().inject({ method: 'POST', url: '/echo', payload: { Nested: { Inner: 'x' } } }),
        400,
        'SerializationException',
        'Nested.Inner',
      );
      const two = assertResponseStatus(await t().inject('/echo?Id=x&Amount=y'), 400, 'SerializationException');
      assert.deepEqual(two.Errors.map((e) => e.FieldName).sort(), ['Amount', 'Id'], 'every unbindable field is reported');
      const put = await t().inject({ method: 'PUT', url: '/customer/bind-8', payload: { FirstName: { a: 1 } } });
      const rs = assertResponseStatus(put, 400, 'SerializationException', 'FirstName');
      assert.match(rs.Errors[0]!.Message, /FirstName/);
      assert.deepEqual(ids(await t().inject('/customer/?Identifiers=bind-8')), [], 'nothing was written');
    });
  },
  {},
  { extraOperations: wireTestOperations },
);
