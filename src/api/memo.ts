/** One memo table: the value for a key, computed on first use. */
export type MemoTable<V> = (key: string, compute: () => V) => V;

/** The memo tables of one resolver; `clear()` empties them all at once. */
export interface Memo {
  /** A new table, cleared with the others. A rejected promise is not kept, so a retry recomputes. */
  table<V>(): MemoTable<V>;
  clear(): void;
}

/**
 * Creates the caches of a resolver. Tables hold frozen results keyed by strings; values that are
 * promises are shared by concurrent calls for the same key.
 */
export function createMemo(): Memo {
  const maps: Array<Map<string, unknown>> = [];
  return {
    table<V>(): MemoTable<V> {
      const map = new Map<string, V>();
      maps.push(map);
      return (key, compute) => {
        if (map.has(key)) return map.get(key) as V;
        const value = compute();
        map.set(key, value);
        if (value instanceof Promise) value.catch(() => map.get(key) === value && map.delete(key));
        return value;
      };
    },
    clear() {
      for (const map of maps) map.clear();
    },
  };
}
