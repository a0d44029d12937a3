/**
 * A bad value of one WEBHOOK_* environment variable. The message reads like the configuration's own
 * errors (`VARIABLE: detail`); `variable` and `detail` are kept apart so the configuration can
 * re-raise it as its own error without this module importing it (config imports the parsers here).
 */
export class WebhookSettingError extends Error {
  constructor(
    readonly variable: string,
    readonly detail: string,
  ) {
    super(`${variable}: ${detail}`);
    this.name = 'WebhookSettingError';
  }
}
