import fp from 'fastify-plugin';

/**
 * Once shutdown begins, each answer closes its connection: a keep-alive client moves on to another
 * instance at once, and close() need not wait for idle connections to time out.
 */
export const draining = fp(
  (app, _opts: Record<never, never>, done) => {
    let closing = false;
    app.addHook('preClose', (next) => {
      closing = true;
      next();
    });
    app.addHook('onSend', (_request, reply, payload, next) => {
      if (closing) reply.header('connection', 'close');
      next(null, payload);
    });
    done();
  },
  { name: 'draining' },
);
