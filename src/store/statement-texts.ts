/**
 * Texts of statements written by hand that depend on a shape (the columns a request sets, how many
 * ids a list binds), kept by shape so that each is built once, and so that the backend reuses its
 * prepared form. Shapes are few; beyond `max` a new shape is built on each use instead of kept.
 */
export function textsByShape<S extends string | number>(build: (shape: S) => string, max = 256): (shape: S) => string {
  const texts = new Map<S, string>();
  return (shape) => {
    let text = texts.get(shape);
    if (text === undefined) {
      text = build(shape);
      if (texts.size < max) texts.set(shape, text);
    }
    return text;
  };
}

/** `?, ?, …`: n placeholders of a list. */
export const placeholders = (n: number): string => (n === 1 ? '?' : `?${', ?'.repeat(n - 1)}`);

/** A list cut into statements of at most `size` items (ids or rows a statement binds). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
