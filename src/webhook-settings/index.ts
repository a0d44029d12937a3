/** What config parses for webhooks and what the webhooks module reads back: the retry schedule and the signing secrets. */
export {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_RETRY_SCHEDULE_TEXT,
  RETRY_JITTER,
  nextAttemptDelayMs,
  parseRetrySchedule,
} from './retry-schedule.js';
export {
  WEBHOOK_SECRET_PREFIX,
  WebhookSecretError,
  newWebhookSecret,
  openSecret,
  parseSecretKey,
  sealSecret,
  webhookSecretKey,
} from './webhook-secret.js';
export { WebhookSettingError } from './webhook-setting-error.js';
