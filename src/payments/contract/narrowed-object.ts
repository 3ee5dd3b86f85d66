import Type, { type Static, type TObject, type TObjectOptions, type TProperties, type TSchema } from 'typebox';

// The service narrows the adapter kit's schemas, never copies them: an object of the kit's fields, in the kit's
// order, where the fields named in `narrowing` take the service's stricter schema (required unless wrapped in
// Type.Optional) and the others stand as the kit has them. The compiler checks that every narrowing names a field of
// the kit and types its values as the kit's field does (test/payments/unit/gateway-settings-narrowing.test.ts checks
// that the bounds only narrow).

type Narrowing<Fields extends TProperties> = { [Key in keyof Fields]?: TSchema };

type NarrowerThanTheKit<Fields extends TProperties, Narrowed> = {
  [Key in keyof Narrowed]: Key extends keyof Fields ? (Static<Narrowed[Key] & TSchema> extends Static<Fields[Key]> ? Narrowed[Key] : never) : never;
};

type NarrowedFields<Fields extends TProperties, Narrowed> = {
  [Key in keyof Fields]: Key extends keyof Narrowed ? Narrowed[Key] & TSchema : Fields[Key];
};

export function narrowedObject<Fields extends TProperties, Narrowed extends Narrowing<Fields>>(
  fields: Fields,
  narrowing: Narrowed & NarrowerThanTheKit<Fields, Narrowed>,
  options: TObjectOptions,
): TObject<NarrowedFields<Fields, Narrowed>> {
  const narrowed: Narrowing<Fields> = narrowing;
  const properties = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, narrowed[key] ?? field]));
  // Object.fromEntries loses the keys' types; the mapping above is NarrowedFields, key for key.
  return Type.Object(properties, options) as TObject<NarrowedFields<Fields, Narrowed>>;
}
