/** What the service adds to Fastify (src/app.ts), in the order bench/fastify-layers-server.ts adds them. */
export const LAYERS = [
  'logger',
  'request id',
  'onRequest hook',
  'security headers',
  'metrics',
  'router options',
  'onSend hook',
  'form bodies',
] as const;
