import type { FieldRule } from './request-schema.js';

/** The response header that carries a feed's watermark (customers, orders). */
export const SYNC_WATERMARK_HEADER = 'X-Sync-Watermark';
export const SYNC_CURSOR_HEADER = 'X-Sync-Cursor';

/** A place in the sync order: customers sort by (modification stamp, CustomerId). */
export interface Position {
  readonly modifiedAt: number;
  readonly customerId: string;
}

/**
 * The cursor a paged answer hands out in `X-Sync-Cursor`: the position of its last row, as
 * base64url JSON so that any CustomerId (commas, non-ASCII) survives a header and a query string.
 */
export function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.modifiedAt, p.customerId]), 'utf8').toString('base64url');
}

/** The position of a cursor this service issued, or undefined when the text is not one. */
export function decodeCursor(text: string): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2) return undefined;
    const [modifiedAt, customerId] = v as unknown[];
    if (!Number.isSafeInteger(modifiedAt) || typeof customerId !== 'string' || customerId === '' || customerId.length > 1000)
      return undefined;
    if (customerId.includes('\u0000')) return undefined; // no id holds one (PostgreSQL text cannot)
    return { modifiedAt: modifiedAt as number, customerId };
  } catch {
    return undefined;
  }
}

/** The rule of a request's Cursor: empty, or a cursor this service issued. */
export const cursorIssuedHere: FieldRule = (rules, field, value) => {
  if (typeof value === 'string' && value !== '' && !decodeCursor(value)) {
    rules.fail(
      field,
      'Predicate',
      `'${field}' is not a cursor issued by this service (use the X-Sync-Cursor header of a previous answer).`,
    );
  }
};

export interface PageWatermarkInput {
  /** Newest committed stamp, read before the rows: every stamp at or below it has committed. */
  readonly committed: number;
  /** The request's LastModifiedAfter, if any. */
  readonly modifiedAfter?: number;
  /** The request's cursor, if any: the client has everything up to this position. */
  readonly after?: Position;
  /** Whether the request skipped rows it did not return (Skip > 0). */
  readonly skipped: boolean;
  /** Set when the answer stops before the end of the result: its last row and the one after it. */
  readonly cut?: { readonly last?: Position; readonly next: Position };
}

/**
 * The X-Sync-Watermark of an answer: the largest stamp S such that every change with a stamp in
 * (what the client already had, S] is in this answer. Passing it back as LastModifiedAfter can
 * repeat rows but never skip one.
 *
 * - The client already had everything up to `base`: the LastModifiedAfter, and with a cursor every
 *   stamp before the cursor's (the cursor's own stamp may have more rows after it).
 * - A complete answer (no `cut`) covers everything committed: `committed`.
 * - A page cut after row `last` covers `last`'s stamp only when the next row has a later stamp;
 *   rows of one transaction share a stamp, so otherwise it covers one millisecond less.
 * - Rows skipped with Skip were not returned here, so such an answer claims nothing beyond `base`.
 */
export function pageWatermark(p: PageWatermarkInput): number {
  const base = Math.max(p.modifiedAfter ?? 0, p.after ? p.after.modifiedAt - 1 : 0);
  if (p.skipped) return base;
  if (!p.cut) return Math.max(base, p.committed);
  if (!p.cut.last) return base;
  const { last, next } = p.cut;
  return Math.max(base, next.modifiedAt > last.modifiedAt ? last.modifiedAt : last.modifiedAt - 1);
}
