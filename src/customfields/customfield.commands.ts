import type { Command } from '../cli/command.js';

/** CLI commands of this module. */
export const customfieldCommands: readonly Command[] = [];
