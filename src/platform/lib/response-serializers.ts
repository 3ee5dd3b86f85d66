import type { FastifyInstance } from 'fastify';
import buildSerializer from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

// Response schemas are module constants: each is compiled once per process by fast-json-stringify (what Fastify
// would do for every app it builds) and the serializer shared by every app of the process. Nothing here uses
// shared schemas (addSchema) or serializer options, so a serializer is a pure function of its schema.
const serializersBySchema = new WeakMap<object, Serializer>();

export function registerResponseSerializers(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    let serializer = serializersBySchema.get(schema);
    if (serializer === undefined) {
      const compiled = buildSerializer(schema);
      serializer = (data) => compiled(data);
      serializersBySchema.set(schema, serializer);
    }
    return serializer;
  });
}
