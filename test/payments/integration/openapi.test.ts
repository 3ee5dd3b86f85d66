import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKindOf } from '../../../src/platform/lib/openapi-common-errors.ts';
import { codesOfStatus } from '../../../src/platform/lib/openapi-error-examples.ts';
import { addPaymentFormats } from '../../../src/payments/contract/request-formats.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// The API reference as a client meets it (issue 11): /openapi.json valid OpenAPI 3.1, every operation named and
// described, its common errors documented with their envelope, and every request example accepted as it stands.

interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Listed {
  method: string;
  path: string;
  operation: Operation;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// An HTML tag as CommonMark sees one; Swagger UI drops it from the rendered text.
const HTML_TAG = /<[A-Za-z/!?][^>]*>/;

// Shared answers are references to components.responses, and shared answer schemas to components.schemas
// (lib/openapi-shared-responses.ts): read through them.
function operationsOf(document: {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, unknown>; schemas?: Record<string, unknown> };
}): Listed[] {
  const shared = document.components?.responses ?? {};
  const sharedSchemas = document.components?.schemas ?? {};
  const withSchemas = (response: unknown) => {
    const content = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content;
    if (content === undefined) return response;
    const schemaOf = (schema: { $ref?: string } | undefined) =>
      schema?.$ref === undefined ? schema : sharedSchemas[schema.$ref.replace('#/components/schemas/', '')];
    const resolvedContent = Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, schema: schemaOf(media.schema) }]));
    return { ...(response as object), content: resolvedContent };
  };
  const resolved = (response: unknown) => {
    const ref = (response as { $ref?: string }).$ref;
    return withSchemas(ref === undefined ? response : shared[ref.replace('#/components/responses/', '')]);
  };
  const listed: Listed[] = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({ method, path, operation: item[method] as Operation })),
  );
  return listed.map(({ method, path, operation }) => ({
    method,
    path,
    operation: {
      ...operation,
      responses: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, resolved(response)])),
    } as Operation,
  }));
}

function rawOperationsOf(document: { paths: Record<string, Record<string, Operation>> }): Listed[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({ method, path, operation: item[method] as Operation })),
  );
}

function examplesOf(media: Media): unknown[] {
  return [...(media.example === undefined ? [] : [media.example]), ...Object.values(media.examples ?? {}).map((example) => example.value)];
}

// Every description and summary in the document, wherever it sits (schemas included), examples excepted.
function textsOf(node: unknown, at: string, found: { at: string; text: string }[] = []): { at: string; text: string }[] {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) textsOf(item, `${at}/${index}`, found);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue;
      if ((key === 'description' || key === 'summary') && typeof value === 'string') found.push({ at: `${at}/${key}`, text: value });
      else textsOf(value, `${at}/${key}`, found);
    }
  }
  return found;
}

const outsideCodeSpans = (text: string) => text.replace(/`[^`]*`/g, '');

function concretePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => (name === 'environment' ? 'sandbox' : name === 'action' ? 'approve' : '1'));
}

describe('the OpenAPI document', () => {
  let server: ServerHarness;
  let document: { info: { title: string }; servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;
  let operations: Listed[];
  let merchantKey: string;
  let served: string;

  beforeAll(async () => {
    // The whole service (the sandbox gateway is reached over HTTPS, as in production). One request per window and
    // IP address: each operation's second request shows whether it is rate limited.
    server = await startServerHarness('pglite', {
      PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: '1',
      PAYRAIL_RATE_LIMIT_ADMIN_IP_MAX: '1',
      PAYRAIL_RATE_LIMIT_CORE_IP_MAX: '1',
    });
    const response = await server.running.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    served = response.body;
    document = response.json();
    operations = operationsOf(document);
    merchantKey = (await server.createMerchant('Docs example merchant')).sandboxKey;
  });
  afterAll(async () => server?.close());

  it('is valid OpenAPI 3.1, titled Payrail API, with its server', async () => {
    const validation = await new Validator().validate(structuredClone(document));
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(document['openapi']).toBe('3.1.0');
    expect(document.info.title).toBe('Payrail API');
    expect(document.servers).toEqual([expect.objectContaining({ url: server.baseUrl })]);
    expect(operations.length).toBeGreaterThan(60);
    // Swagger UI renders it in seconds: answers shared by several operations are written once. (Raised from 450,000
    // with issue 23's events, test clocks, exports and reconciliation: about 494,000 then.)
    expect(JSON.stringify(document).length).toBeLessThan(540_000);
    expect(rawOperationsOf(document).every(({ operation }) => Object.values(operation.responses).every((response) => response !== undefined))).toBe(true);
  });

  // Issue 20 moved the code into modules without changing a byte of the document: the fixture is the document
  // served at 7b0ee60 (before the move), pretty-printed; served compactly it reads the same, its server URL aside.
  // A change of the API on purpose regenerates it (issue 21: the dashboard's admin routes, review_status, stats; issue 23:
  // events, test clocks, exports, reconciliation).
  it('is byte for byte the document of the fixture (no change of the API slips in unseen)', () => {
    const before = JSON.parse(readFileSync(new URL('../fixtures/openapi-before-modules.json', import.meta.url), 'utf8'));
    const now = served.replaceAll(server.baseUrl, 'https://localhost:HARNESS_PORT');
    expect(JSON.parse(now)).toEqual(before); // a readable difference first
    expect(now === JSON.stringify(before), 'same content, other key order or spelling').toBe(true);
  });

  it('names, sums up and describes every operation', () => {
    const unnamed = operations.filter(({ operation }) => !operation.operationId || !operation.summary || !operation.description);
    expect(unnamed.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('keeps angle-bracket text in code spans, so Markdown shows it', () => {
    const texts = textsOf(document, '#');
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter(({ text }) => HTML_TAG.test(outsideCodeSpans(text)))).toEqual([]);
    const head = JSON.stringify(document.components);
    expect(head).toContain('`Authorization: Bearer <merchant key>`');
  });

  it("documents each operation's common errors with its API's envelope", () => {
    const missing: string[] = [];
    for (const { method, path, operation } of operations) {
      const kind = apiKindOf(operation);
      const hasBody = operation.requestBody !== undefined;
      const hasInput = hasBody || (operation.parameters?.length ?? 0) > 0;
      const expected = [
        ...(hasInput ? ['400', '422'] : []),
        ...((operation.security?.length ?? 0) > 0 ? ['401'] : []),
        ...(hasBody ? ['413', '415'] : []),
        ...(kind === 'public' ? [] : ['429']),
      ];
      for (const status of expected) {
        const schema = operation.responses[status]?.content?.['application/json']?.schema as
          | { properties?: { success?: unknown; errors?: { items?: { properties?: Record<string, unknown> } } } }
          | undefined;
        const itemFields = Object.keys(schema?.properties?.errors?.items?.properties ?? {});
        const envelope = schema?.properties?.success !== undefined && itemFields.includes('code') && itemFields.includes('message');
        const rightKind = kind === 'core' ? itemFields.includes('kind') : !itemFields.includes('kind');
        if (!envelope || !rightKind) missing.push(`${method} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents 429 exactly where requests are counted', async () => {
    const wrong: string[] = [];
    let host = 0;
    for (const { method, path, operation } of operations) {
      host += 1;
      const remoteAddress = `10.9.${Math.floor(host / 250)}.${(host % 250) + 1}`;
      const request = { method: method.toUpperCase() as 'GET', url: concretePath(path), remoteAddress };
      await server.running.app.inject(request);
      const second = await server.running.app.inject(request);
      const limited = second.statusCode === 429;
      if (limited !== (operation.responses['429'] !== undefined)) wrong.push(`${method} ${path}: answered ${second.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  // The options Fastify validates with (app.ts) and the payment formats; the document's own keywords are annotations.
  function documentAjv(): Ajv {
    const ajv = new Ajv({ allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false, strict: false });
    addFormats.default(ajv);
    return addPaymentFormats(ajv, server.running.app.payrail.currencies);
  }

  function checkExamples(ajv: Ajv, where: string, media: Media, problems: string[]): void {
    if (media.schema === undefined) return;
    const validate = ajv.compile({ ...media.schema, components: document['components'] });
    for (const example of examplesOf(media)) {
      if (!validate(structuredClone(example))) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    }
  }

  it('gives every request body an example its schema accepts', () => {
    const ajv = documentAjv();
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (examplesOf(media).length === 0) problems.push(`${method} ${path} ${mediaType}: no example`);
        checkExamples(ajv, `${method} ${path} ${mediaType}`, media, problems);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives the main (JSON) answer of every operation an example its schema accepts', () => {
    const ajv = documentAjv();
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      const [status, ok] = Object.entries(operation.responses).find(([code]) => code.startsWith('2')) ?? [];
      const json = ok?.content?.['application/json'];
      if (json === undefined) continue; // a file download
      if (examplesOf(json).length === 0) problems.push(`${method} ${path} ${status}: no example`);
      checkExamples(ajv, `${method} ${path} ${status}`, json, problems);
    }
    expect(problems).toEqual([]);
  });

  it('describes every answer, and shows each error as its status sends it, with the codes it carries', () => {
    const ajv = documentAjv();
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${method} ${path} ${status}`;
        const described = response as { description?: string };
        if (described.description === undefined || described.description === 'Default Response') problems.push(`${where}: not described`);
        if (Number(status) < 400) continue;
        const json = response.content?.['application/json'];
        const example = json?.example as { status?: number; errors?: { code?: string }[] } | undefined;
        if (example === undefined) {
          problems.push(`${where}: no example`);
          continue;
        }
        if (example.status !== Number(status)) problems.push(`${where}: the example says status ${example.status}`);
        const code = example.errors?.[0]?.code ?? '';
        if (!described.description?.includes(`\`${code}\``)) problems.push(`${where}: the description does not name ${code}`);
        checkExamples(ajv, where, json as NonNullable<typeof json>, problems);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers the common errors as documented, in their envelope', async () => {
    const ajv = documentAjv();
    let host = 0;
    const send = (options: { method: 'GET' | 'POST'; url: string; key?: string; type?: string; payload?: string }) =>
      server.running.app.inject({
        method: options.method,
        url: options.url,
        remoteAddress: `10.7.0.${++host}`,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(options.type ? { 'content-type': options.type } : {}),
        },
        ...(options.payload === undefined ? {} : { payload: options.payload }),
      });
    const cases = [
      {
        path: '/api/v1/refunds',
        method: 'post',
        status: '400',
        request: { method: 'POST', url: '/api/v1/refunds', key: merchantKey, type: 'application/json', payload: '{bad' },
      },
      { path: '/api/v1/payments/{token}', method: 'get', status: '400', request: { method: 'GET', url: '/api/v1/payments/%E0%A4%A', key: merchantKey } },
      { path: '/api/v1/refunds', method: 'post', status: '401', request: { method: 'POST', url: '/api/v1/refunds', type: 'application/json', payload: '{}' } },
      {
        path: '/api/v1/refunds',
        method: 'post',
        status: '413',
        request: {
          method: 'POST',
          url: '/api/v1/refunds',
          key: merchantKey,
          type: 'application/json',
          payload: JSON.stringify({ token: 'x'.repeat(1024 * 1024) }),
        },
      },
      {
        path: '/api/v1/refunds',
        method: 'post',
        status: '415',
        request: { method: 'POST', url: '/api/v1/refunds', key: merchantKey, type: 'text/plain', payload: 'token' },
      },
      {
        path: '/api/v1/refunds',
        method: 'post',
        status: '422',
        request: { method: 'POST', url: '/api/v1/refunds', key: merchantKey, type: 'application/json', payload: '{}' },
      },
      {
        path: '/api/v2/auth/login',
        method: 'post',
        status: '400',
        request: { method: 'POST', url: '/api/v2/auth/login', type: 'application/json', payload: '{bad' },
      },
      {
        path: '/api/v2/auth/login',
        method: 'post',
        status: '422',
        request: { method: 'POST', url: '/api/v2/auth/login', type: 'application/json', payload: '{}' },
      },
    ] as const;
    const wrong: string[] = [];
    for (const { path, method, status, request } of cases) {
      const response = await send(request);
      const listed = operations.find((operation) => operation.path === path && operation.method === method);
      const schema = listed?.operation.responses[status]?.content?.['application/json']?.schema;
      const validate = ajv.compile({ ...schema, components: document['components'] });
      if (String(response.statusCode) !== status || !validate(response.json())) {
        wrong.push(`${method} ${path} ${status}: answered ${response.statusCode} ${response.body.slice(0, 200)} ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("creates payments from the documented examples, as Swagger UI's Try it out sends them", async () => {
    const media = document.paths['/api/v1/payments']?.['post']?.requestBody?.content['application/json'];
    const examples = examplesOf(media ?? {});
    expect(examples.length).toBe(2);
    const statuses: string[] = [];
    for (const [index, example] of examples.entries()) {
      const response = await server.running.app.inject({
        method: 'POST',
        url: '/api/v1/payments',
        headers: { authorization: `Bearer ${merchantKey}` },
        payload: example as Record<string, unknown>,
        remoteAddress: `10.8.0.${index + 1}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ success: true });
      statuses.push(response.json().payment.status);
    }
    expect(statuses).toEqual(['init', 'approved']); // the hosted page, then the sandbox card approved at once
  });
});

describe("an error answer's codes, split by status from a route's one description", () => {
  const chargeCodes =
    'session_required, session_invalid (401); profile_disabled (403); not_found (404: missing, or not yours); charge_not_pending (409); invalid_field, insufficient_funds (422); rate_limited (429)';
  it.each([
    [chargeCodes, 401, ['session_required', 'session_invalid']],
    [chargeCodes, 409, ['charge_not_pending']],
    [chargeCodes, 422, ['invalid_field', 'insufficient_funds']],
    ['adapter_unavailable (502, or 504 on a timeout: the adapter gave no answer)', 504, ['adapter_unavailable']],
    ['not_found, invalid_state (the payment is not approved, or is a payout), refund_exceeds_captured', 409, ['invalid_state']],
    ['machine-readable: not_found, invalid_state, invalid_field, …', 404, ['not_found']],
  ])('finds in %j at %i the codes %j', (text, status, codes) => {
    expect(codesOfStatus(text, status, false, false)).toEqual(codes);
  });

  it("falls back on the status's usual code, the core banking API's for a credential", () => {
    expect(codesOfStatus('invalid_field', 400, false, false)).toEqual(['invalid_json']);
    expect(codesOfStatus(undefined, 401, true, false)).toEqual(['session_invalid']);
    expect(codesOfStatus(undefined, 401, true, true)).toEqual(['app_token_invalid']);
  });
});
