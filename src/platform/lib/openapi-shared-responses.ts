// The same answer documented on many operations (an error envelope, the payment envelope) is written once under
// components.responses and referenced: inlined, it made the document ~760 KB and Swagger UI took half a minute to
// render it. Only the document changes; routes keep their own schemas.

type ResponseObject = Record<string, unknown>;
interface OpenApiLike {
  paths?: Record<string, Record<string, { responses?: Record<string, ResponseObject> } | unknown>>;
  components?: { responses?: Record<string, ResponseObject> } & Record<string, unknown>;
}

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SHARED_FROM_USES = 2;

function operationResponses(document: OpenApiLike): Record<string, ResponseObject>[] {
  const found: Record<string, ResponseObject>[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const [key, operation] of Object.entries(item)) {
      if (!OPERATION_KEYS.has(key) || operation === null || typeof operation !== 'object') continue;
      const responses = (operation as { responses?: Record<string, ResponseObject> }).responses;
      if (responses) found.push(responses);
    }
  }
  return found;
}

export function shareRepeatedResponses<T extends object>(openApiDocument: T): T {
  const document = openApiDocument as OpenApiLike;
  const all = operationResponses(document);
  const uses = new Map<string, number>();
  for (const responses of all) {
    for (const response of Object.values(responses)) {
      const text = JSON.stringify(response);
      uses.set(text, (uses.get(text) ?? 0) + 1);
    }
  }
  const shared = { ...(document.components?.responses ?? {}) };
  const nameOf = new Map<string, string>();
  for (const responses of all) {
    for (const [status, response] of Object.entries(responses)) {
      const text = JSON.stringify(response);
      if ((uses.get(text) ?? 0) < SHARED_FROM_USES) continue;
      let name = nameOf.get(text);
      if (name === undefined) {
        let index = 1;
        name = `status${status}`;
        while (shared[name] !== undefined) name = `status${status}_${++index}`;
        shared[name] = response;
        nameOf.set(text, name);
      }
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  document.components = { ...(document.components ?? {}), responses: shared };
  return openApiDocument;
}

// The schema of an answer repeated across responses that differ in their description or example (a route's error
// envelope at each of its statuses) is written once under components.schemas and referenced.
const SHARED_SCHEMA_CHARS_MIN = 200;

function answerMedia(document: OpenApiLike): Record<string, unknown>[] {
  const media: Record<string, unknown>[] = [];
  const responses = [...operationResponses(document).flatMap((each) => Object.values(each)), ...Object.values(document.components?.responses ?? {})];
  for (const response of responses) {
    const content = (response as { content?: Record<string, Record<string, unknown>> }).content;
    if (content) media.push(...Object.values(content));
  }
  return media;
}

export function shareRepeatedSchemas<T extends object>(openApiDocument: T): T {
  const document = openApiDocument as OpenApiLike & { components?: { schemas?: Record<string, unknown> } };
  const media = answerMedia(document);
  const uses = new Map<string, number>();
  for (const each of media) {
    const text = JSON.stringify(each['schema']);
    if (text !== undefined && text.length >= SHARED_SCHEMA_CHARS_MIN) uses.set(text, (uses.get(text) ?? 0) + 1);
  }
  const schemas: Record<string, unknown> = { ...(document.components?.schemas ?? {}) };
  const nameOf = new Map<string, string>();
  for (const each of media) {
    const text = JSON.stringify(each['schema']);
    if (text === undefined || (uses.get(text) ?? 0) < SHARED_FROM_USES) continue;
    let name = nameOf.get(text);
    if (name === undefined) {
      name = `answer${nameOf.size + 1}`;
      schemas[name] = each['schema'];
      nameOf.set(text, name);
    }
    each['schema'] = { $ref: `#/components/schemas/${name}` };
  }
  document.components = { ...(document.components ?? {}), schemas };
  return openApiDocument;
}
