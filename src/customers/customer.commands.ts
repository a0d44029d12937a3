import type { Command } from '../cli/command.js';

/** CLI commands of this module. */
export const customerCommands: readonly Command[] = [];
