type RowOf = (values: readonly unknown[]) => Record<string, unknown>;

// One maker per column list (the callers' constants): a constructor that sets every column, so that
// every row gets its shape at once, with Object.prototype as its prototype (rows stay plain objects).
// Not an object literal: V8 may decide from a literal's allocation site, once and for good, that its
// objects live long and allocate them in the old generation. Dead rows there are freed only by a full
// collection and keep their strings alive through every scavenge, which promotes them (the order
// feed's kept confirmation texts: 2.1 MB a scavenge, docs/performance.md). `new` has no such site.
const makers = new WeakMap<ReadonlyArray<string>, RowOf>();

/** The maker of rows of these columns: values in the columns' order → a plain object by name. */
function rowMaker(columns: ReadonlyArray<string>): RowOf {
  let make = makers.get(columns);
  if (make === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from the statement's column names, quoted by JSON.stringify
    const Row = new Function('v', columns.map((c, i) => `this[${JSON.stringify(c)}] = v[${i}];`).join(' ')) as new (
      v: readonly unknown[],
    ) => Record<string, unknown>;
    Row.prototype = Object.prototype;
    make = (v) => new Row(v);
    makers.set(columns, make);
  }
  return make;
}

/** Rows read as arrays (values in the columns' order), each made a plain object by one constructor call. */
export function rowsOf<R>(arrays: readonly unknown[][], columns: ReadonlyArray<keyof R & string>): R[] {
  const make = rowMaker(columns);
  const out = new Array<R>(arrays.length);
  for (let i = 0; i < arrays.length; i++) out[i] = make(arrays[i]!) as R;
  return out;
}
