// Adapters read a key sent as null as a value to check (one declined `requisite_type: null`), so optional
// fields of an outgoing request are left out when absent, never sent as null.

type RequiredKeys<T> = { [K in keyof T]-?: null extends T[K] ? never : undefined extends T[K] ? never : K }[keyof T];
type AbsentableKeys<T> = Exclude<keyof T, RequiredKeys<T>>;

export type WithoutAbsent<T> = { [K in RequiredKeys<T>]: T[K] } & { [K in AbsentableKeys<T>]?: Exclude<T[K], null | undefined> };

// A shallow copy of `record` without its null and undefined values.
export function withoutAbsent<T extends object>(record: T): WithoutAbsent<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined)) as WithoutAbsent<T>;
}
