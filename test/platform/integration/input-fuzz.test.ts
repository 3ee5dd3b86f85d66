import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppToken, createTestProfile, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

type JsonSchema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string; // OpenAPI template: /api/admin/v1/users/{id}
  pathParams: string[];
  queryParams: string[];
  bodyExample: Record<string, unknown> | null; // the documented example of a JSON body
}

// Operations that reach an adapter (a payment or payout create with a card), take multipart, or need a JWT are
// fuzzed in their own files (fuzz.test.ts, disputes-form.test.ts, provider-callbacks.test.ts).
const NOT_HERE = [/^POST \/api\/v1\/(payments|payouts)$/, /^POST \/api\/v1\/disputes$/, /upload_file/, /^POST \/callbacks\//, /^POST \/sandbox-adapter/];

function operationsOf(document: { paths: Record<string, Record<string, JsonSchema>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      const upper = method.toUpperCase();
      if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(upper) || NOT_HERE.some((pattern) => pattern.test(`${upper} ${path}`))) return [];
      const parameters = (operation['parameters'] ?? []) as { in: string; name: string }[];
      const body = (operation['requestBody'] as { content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value?: unknown }> }> })
        ?.content?.['application/json'];
      const example = body?.schema?.['examples'] ?? Object.values(body?.examples ?? {}).map((item) => item.value);
      const first = Array.isArray(example) ? example[0] : undefined;
      return [
        {
          method: upper,
          path,
          pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
          queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
          bodyExample: first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : body ? {} : null,
        },
      ];
    }),
  );
}

// Every integer a request schema admits, and where, when it has no maximum (decimal numbers are kept finite and
// bounded by their own field's rule).
function unboundedIntegers(schema: unknown, at: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => unboundedIntegers(item, `${at}[${index}]`));
  const record = schema as JsonSchema;
  const types = [record['type']].flat();
  const own = types.includes('integer') && record['maximum'] === undefined && record['exclusiveMaximum'] === undefined ? [at] : [];
  const inner = Object.entries(record)
    .filter(([key]) => !['examples', 'example', 'default', 'enum', 'const'].includes(key))
    .flatMap(([key, value]) => unboundedIntegers(value, `${at}.${key}`));
  return [...own, ...inner];
}

// The text and JSON values the review's 161,600 requests found 500s with, and their neighbours.
const hostileText = fc.oneof(
  fc.constantFrom('1e309', '-1e309', 'Infinity', 'NaN', ' 100', '1e2', '0x10', '1.5', '-0', '', '9'.repeat(400), '\u0000', 'a\u0000b'),
  fc.string({ maxLength: 24 }),
  fc.integer().map(String),
);
const hostileJson = fc.oneof(
  hostileText,
  fc.constantFrom(true, false, null, 1e300, -1, 0, 2 ** 53, 2 ** 63, 1.5, [], {}, { '\u0000': 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);

describe.each(engines)('hostile input on every operation of the OpenAPI document, on %s', (engine) => {
  let harness: Harness;
  let operations: Operation[];
  let headers: Record<string, string>;
  let adminHeaders: Record<string, string>;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant();
    const profile = await createTestProfile(harness.database.db);
    headers = {
      authorization: `Bearer ${merchant.sandboxKey}`,
      'session-token': await openTestSession(harness.database.db, profile.id),
      'app-token': await createTestAppToken(harness.database.db),
    };
    adminHeaders = { authorization: `Bearer ${harness.adminKey}` };
    operations = operationsOf((await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json());
  });
  afterAll(async () => harness?.close());

  const send = (operation: Operation, pathValues: Record<string, string>, query: Record<string, string>, payload: string | undefined) => {
    const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(pathValues[name] ?? '1'));
    const search = new URLSearchParams(query).toString();
    return harness.app.inject({
      method: operation.method as 'GET',
      url: search === '' ? path : `${path}?${search}`,
      headers: {
        ...(operation.path.startsWith('/api/admin/') ? adminHeaders : headers),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  };
  const assertCoded = (response: { statusCode: number; body: string }, what: string) => {
    expect(response.statusCode, `${what} → ${response.body}`).toBeLessThan(500);
  };

  it('declares a maximum for every integer a request may carry', () => {
    const document = harness.app.swagger() as unknown as { paths: Record<string, Record<string, JsonSchema>> };
    const unbounded = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) => [
        ...((operation['parameters'] ?? []) as JsonSchema[]).flatMap((parameter) =>
          unboundedIntegers(parameter['schema'], `${method} ${path} ${parameter['in']}.${parameter['name']}`),
        ),
        ...Object.entries((operation['requestBody'] as { content?: Record<string, { schema?: unknown }> })?.content ?? {}).flatMap(([type, content]) =>
          unboundedIntegers(content.schema, `${method} ${path} body(${type})`),
        ),
      ]),
    );
    expect(unbounded).toEqual([]);
  });

  it('never answers 5xx to hostile path segments and query values', async () => {
    const withParameters = operations.filter((operation) => operation.pathParams.length + operation.queryParams.length > 0);
    expect(withParameters.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withParameters), fc.nat(), hostileText, async (operation, pick, value) => {
        const names = [...operation.pathParams, ...operation.queryParams];
        const name = names[pick % names.length]!;
        const inPath = operation.pathParams.includes(name);
        const response = await send(operation, inPath ? { [name]: value } : {}, inPath ? {} : { [name]: value }, operation.bodyExample ? '{}' : undefined);
        assertCoded(response, `${operation.method} ${operation.path} ${name}=${JSON.stringify(value)}`);
      }),
      { numRuns: 250 },
    );
  });

  it('never answers 5xx to a documented JSON body with one field replaced, or given as a raw 1e309', async () => {
    const withBodies = operations.filter((operation) => operation.bodyExample !== null);
    expect(withBodies.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withBodies), fc.nat(), hostileJson, fc.boolean(), async (operation, pick, value, rawInfinity) => {
        const example = operation.bodyExample!;
        const fields = Object.keys(example);
        const field = fields.length === 0 ? 'extra' : fields[pick % fields.length]!;
        const payload = rawInfinity ? JSON.stringify({ ...example, [field]: 0.5 }).replace('0.5', '1e309') : JSON.stringify({ ...example, [field]: value });
        assertCoded(await send(operation, {}, {}, payload), `${operation.method} ${operation.path} ${payload.slice(0, 200)}`);
      }),
      { numRuns: 250 },
    );
  });
});
