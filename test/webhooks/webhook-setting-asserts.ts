import assert from 'node:assert/strict';
import { WebhookSettingError } from '../../src/webhook-settings/webhook-setting-error.js';

/** Asserts that `fn` refuses a WEBHOOK_* value with an error that names `variable` and does not repeat `hidden`. */
export function assertSettingRefused(fn: () => unknown, variable: string, label: string, hidden?: string): void {
  assert.throws(
    fn,
    (err: unknown) => {
      assert.ok(err instanceof WebhookSettingError, String(err));
      assert.equal(err.variable, variable);
      assert.ok(err.message.startsWith(`${variable}: `), err.message);
      if (hidden) assert.ok(!err.message.includes(hidden), `the message repeats the value: ${err.message}`);
      return true;
    },
    label,
  );
}
