/** What the service adds to Fastify (src/app.ts: its options and plugins), in the order bench/fastify-layers-server.ts adds them. */
export const LAYERS = [
  'logger',
  'request id',
  'api load',
  'servicestack wire',
  'security headers',
  'rate limits (off)',
  'draining',
  'metrics',
  'router options',
] as const;
