import fp from 'fastify-plugin';
import type { Store } from '../store/store.js';
import type { WriteRegistry } from './unit.js';
import { openWriteDoor, type WriteDoor } from './write-door.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The write door of this app: opened with it, closed when it closes. */
    readonly writes: WriteDoor;
  }
}

/**
 * The app owns its write door: on a SQLite file a write thread, which must not outlive it. Closed
 * last of the plugins that write (plugins close in the reverse order of their registration).
 */
export const writeDoor = fp(
  (app, { store, registry }: { readonly store: Store; readonly registry: WriteRegistry }, done) => {
    const writes = openWriteDoor(store, registry, { thread: true });
    app.decorate('writes', writes);
    app.addHook('onClose', async () => writes.close());
    done();
  },
  { name: 'write-door' },
);
