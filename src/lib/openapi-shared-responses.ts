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
