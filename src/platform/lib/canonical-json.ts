import { isJsonObject } from './type-guards.ts';

export interface CanonicalJsonOptions {
  omitKeys?: ReadonlySet<string>; // object keys left out at any depth
}

// A piece of output text on the work stack, as opposed to a value still to be written.
class Text {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

// JSON with object keys sorted, so two bodies that differ only in key order or whitespace compare equal.
// Iterative with an explicit stack: any nesting depth the parser let through is written without recursion.
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const omitKeys = options.omitKeys;
  const output: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Text) {
      output.push(item.text);
    } else if (Array.isArray(item)) {
      output.push('[');
      work.push(new Text(']'));
      for (let index = item.length - 1; index >= 0; index -= 1) {
        work.push(item[index]);
        if (index > 0) work.push(new Text(','));
      }
    } else if (isJsonObject(item)) {
      const record = item;
      const keys = Object.keys(record)
        .filter((key) => !omitKeys?.has(key))
        .sort();
      output.push('{');
      work.push(new Text('}'));
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index]!;
        work.push(record[key], new Text(`${JSON.stringify(key)}:`));
        if (index > 0) work.push(new Text(','));
      }
    } else {
      output.push(JSON.stringify(item) ?? 'null');
    }
  }
  return output.join('');
}
