import { createHash } from 'node:crypto';

/** The SHA-256 of a text's UTF-8 bytes, as lowercase hex (a stored confirmation's hash). */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
