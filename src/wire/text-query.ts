import { Type } from '@sinclair/typebox';
import { queryWords } from '../store/text-words.js';
import type { FieldRule } from './request-schema.js';

/** Shortest and longest text query (2–100 characters: shorter matches too much to be useful). */
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 100;

/** The `Query` of a search: each of its words must start a word of what it finds. */
export const TextQuery = (where: string) =>
  Type.Optional(
    Type.String({
      minLength: QUERY_MIN_LENGTH,
      maxLength: QUERY_MAX_LENGTH,
      description:
        `Text to find, ${QUERY_MIN_LENGTH}–${QUERY_MAX_LENGTH} characters: only results where each of its words starts a word of ${where}, ignoring case and accents ` +
        '(`müll köln` finds Anna Müller in Köln). Words are runs of letters and digits. Combined with the other filters (all must match).',
      examples: ['müll köln'],
    }),
  );

/**
 * The rule of a `Query` beyond its maximum length (the schema's check): at least the minimum
 * length, and at least one letter or digit. A query of punctuation alone would match every row,
 * which is never what was meant: it is refused rather than answered with everything.
 */
export const textQueryRule: FieldRule = (rules, field, value) => {
  if (typeof value !== 'string') return;
  if (value.length < QUERY_MIN_LENGTH) {
    rules.fail(
      field,
      'MinimumLength',
      `The length of '${field}' must be at least ${QUERY_MIN_LENGTH} characters. You entered ${value.length} characters.`,
    );
  } else if (queryWords(value).length === 0) {
    rules.fail(field, 'Predicate', `'${field}' must hold a letter or a digit.`);
  }
};
