import { serve } from '../server.js';
import type { Command } from './command.js';

export const serveCommand: Command = {
  words: ['serve'],
  usage: 'serve',
  summary: 'migrate the store and serve HTTP on HOST:PORT with WORKERS processes',
  run: async (_args, config) => {
    await serve(config);
    return -1; // keep running
  },
};
