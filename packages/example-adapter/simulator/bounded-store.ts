// An in-memory table with a bound: past `recordsMax` entries the oldest is forgotten. A simulator may lose an
// old record; it must never grow without limit.
export interface BoundedStore<Value> {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
  values(): IterableIterator<Value>;
  readonly size: number;
}

export function boundedStore<Value>(recordsMax: number): BoundedStore<Value> {
  if (!Number.isSafeInteger(recordsMax) || recordsMax < 1) throw new Error('recordsMax must be a positive integer');
  const entries = new Map<string, Value>();
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      entries.delete(key); // re-inserted last: Map iteration order is insertion order
      entries.set(key, value);
      while (entries.size > recordsMax) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    values: () => entries.values(),
    get size() {
      return entries.size;
    },
  };
}
