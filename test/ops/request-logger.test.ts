import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { requestLoggerFactory } from '../../src/ops/request-logger.js';

function collected(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

test("a request's logger writes the lines of pino's child with the request's bindings", () => {
  const { logger, lines } = collected('warn');
  const log = requestLoggerFactory(logger, { reqId: 'r-1' }, {});
  log.info({ req: 1 }, 'incoming request');
  log.debug('not at this level');
  assert.equal(lines.length, 0);
  log.warn({ code: 7 }, 'slow store');
  log.child({ part: 'x' }).error('failed %s', 'twice');
  assert.equal(lines.length, 2);
  assert.deepEqual(
    lines.map(({ level, reqId, code, part, msg }) => ({ level, reqId, code, part, msg })),
    [
      { level: 40, reqId: 'r-1', code: 7, part: undefined, msg: 'slow store' },
      { level: 50, reqId: 'r-1', code: undefined, part: 'x', msg: 'failed twice' },
    ],
  );
  assert.equal(log.level, 'warn');
});

test("a request's logger follows the level of its parent, and a route's own level gets pino's child", () => {
  const { logger, lines } = collected('info');
  requestLoggerFactory(logger, { reqId: 'r-2' }, {}).info('incoming request');
  assert.deepEqual(
    lines.map(({ reqId, msg }) => ({ reqId, msg })),
    [{ reqId: 'r-2', msg: 'incoming request' }],
  );
  const own = requestLoggerFactory(logger, { reqId: 'r-3' }, { level: 'error' });
  own.warn('dropped by the route level');
  assert.equal(lines.length, 1);
  assert.equal(own.level, 'error');
});
