import type { Command } from '../cli/command.js';

/** CLI commands of this module. */
export const orderCommands: readonly Command[] = [];
