/**
 * Splits a JSV list as ServiceStack reads it from paths, query strings and forms: `a,b,c` or
 * `[a,b,c]`; items may be double-quoted (`"a,b",c`, with `""` for a quote inside).
 */
export function parseJsvList(text: string): string[] {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1).trim();
  if (t === '') return [];
  if (!t.includes('"')) return t.split(',').map((s) => s.trim());
  const items: string[] = [];
  let i = 0;
  while (i <= t.length) {
    while (t[i] === ' ') i++;
    if (t[i] === '"') {
      let value = '';
      i++;
      while (i < t.length) {
        if (t[i] === '"' && t[i + 1] === '"') {
          value += '"';
          i += 2;
          continue;
        }
        if (t[i] === '"') {
          i++;
          break;
        }
        value += t[i++];
      }
      items.push(value);
      while (i < t.length && t[i] !== ',') i++;
    } else {
      const end = t.indexOf(',', i);
      items.push(t.slice(i, end === -1 ? t.length : end).trim());
      i = end === -1 ? t.length : end;
    }
    i++; // past the comma
  }
  return items;
}
