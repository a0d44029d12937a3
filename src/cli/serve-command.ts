import { serve } from '../server.js';
import type { RunCommand } from './command.js';

export const serveCommand: RunCommand = async (_args, config) => {
  await serve(config);
  return -1; // keep running
};
