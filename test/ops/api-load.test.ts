import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import { ApiLoad } from '../../src/ops/api-load.js';

/** Short requests, one every 10 ms, for `ms`; with `busy`, the loop works between them. */
async function trickle(load: ApiLoad, ms: number, busy = false): Promise<void> {
  for (const end = performance.now() + ms; performance.now() < end;) {
    load.begin();
    load.end();
    if (!busy) {
      await sleep(10);
      continue;
    }
    const slice = performance.now() + 10;
    while (performance.now() < slice);
    await turn();
  }
}

const load = new ApiLoad();
load.start();
after(() => load.stop());

test('requests one at a time do not saturate it, on an idle loop or on a loop busy with other work', async () => {
  await trickle(load, 300);
  assert.equal(load.saturated, false);
  await trickle(load, 300, true);
  assert.equal(load.saturated, false);
});

test('requests that queue (several in progress at once while more come) saturate it, until they are answered', async () => {
  for (let i = 0; i < 5; i++) load.begin();
  await trickle(load, 300);
  assert.equal(load.saturated, true);
  for (let i = 0; i < 5; i++) load.end();
  await trickle(load, 300);
  assert.equal(load.saturated, false);
});

test('requests in progress without new ones (long streams) are no queue', async () => {
  for (let i = 0; i < 5; i++) load.begin();
  await sleep(300);
  assert.equal(load.saturated, false);
});
