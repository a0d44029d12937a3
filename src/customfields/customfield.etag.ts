/**
 * Whether an If-Match header lets a write go ahead, given the current ETag (RFC 9110: `*` or a
 * list of tags, strong comparison, so weak `W/` tags never match). A bare tag without quotes is
 * accepted too, as some clients strip them. No header or a blank one: no precondition.
 */
export function ifMatchAccepts(header: string | undefined, current: string): boolean {
  if (header === undefined || header.trim() === '') return true;
  const tags = header.split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || t === current || (!t.startsWith('W/') && !t.startsWith('"') && `"${t}"` === current));
}
