/**
 * A value kept on a plain row under a non-enumerable symbol, where nothing else sees it: JSON,
 * structured cloning (the worker pool), spreads and Jest's equality all skip it, so a copy of the
 * row has none. Used where a computation keeps its exact numbers beside the rows it writes as text
 * (a disposal's amounts, a Form 8949 line's cents), for whoever sums those rows next.
 *
 * Not a WeakMap: with hundreds of thousands of rows, a WeakMap's ephemeron table made the garbage
 * collector's work over half of a large history's cost-basis run (docs/decisions.md, "Exact numbers
 * beside the rows").
 */
export interface HiddenSlot<Row extends object, Value> {
  /** Once per row, when the row is made (a row's slot is not changed afterwards). */
  set(row: Row, value: Value): void;
  /** The value the row was given; undefined for a row made elsewhere (a copy, a literal). */
  get(row: Row): Value | undefined;
}

export function hiddenSlot<Row extends object, Value>(description: string): HiddenSlot<Row, Value> {
  const key = Symbol(description);
  return {
    set(row, value) {
      Object.defineProperty(row, key, { value, enumerable: false });
    },
    get(row) {
      return (row as { [key]?: Value })[key];
    },
  };
}
