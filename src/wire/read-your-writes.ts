import { SerializationError } from '../errors.js';
import { parseWireDate } from './dates.js';
import type { OperationCall } from './operation.js';

/**
 * Request header of the reads a read replica may answer: a watermark the answer must include (the
 * X-Write-Watermark of the client's last write, or an X-Sync-Watermark it already saw). A replica
 * that has not replayed that far leaves the read to the primary (docs/replicas.md).
 */
export const MIN_WATERMARK_HEADER = 'X-Min-Watermark';

/**
 * Response header of the writes whose changes the replica-served reads show: the primary's
 * committed watermark once the write committed, which covers it.
 */
export const WRITE_WATERMARK_HEADER = 'X-Write-Watermark';

/** The request's X-Min-Watermark as epoch ms; a value that is not a date is refused (400). */
export function minWatermarkOf(call: Pick<OperationCall, 'header'>, operation: string): number | undefined {
  const text = call.header(MIN_WATERMARK_HEADER);
  if (text === undefined || text.trim() === '') return undefined;
  const ms = parseWireDate(text);
  if (ms !== undefined) return ms;
  throw new SerializationError(operation, [
    {
      errorCode: SerializationError.CODE,
      fieldName: MIN_WATERMARK_HEADER,
      message: `'${MIN_WATERMARK_HEADER}' must be a watermark as X-Write-Watermark or X-Sync-Watermark carry it, got '${text.slice(0, 60)}'.`,
    },
  ]);
}
