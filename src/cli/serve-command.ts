import type { Command } from './command.js';

export const serveCommand: Command = {
  words: ['serve'],
  usage: 'serve',
  summary: 'migrate the store and serve HTTP on HOST:PORT with WORKERS processes',
  run: async (_args, config) => {
    // Loaded on demand: the HTTP stack is the bulk of the start-up time of every other command.
    const { serve } = await import('../server.js');
    await serve(config);
    return -1; // keep running
  },
};
