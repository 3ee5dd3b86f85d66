import { objectAt, type JsonObject } from './json-path.ts';
import { isJsonObject } from './type-guards.ts';

// The same answer documented on many operations (an error envelope, the payment envelope) is written once under
// components.responses and referenced: inlined, it made the document ~760 KB and Swagger UI took half a minute to
// render it. Only the document changes; routes keep their own schemas.

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SHARED_FROM_USES = 2;

function operationResponses(document: JsonObject): JsonObject[] {
  const found: JsonObject[] = [];
  for (const item of Object.values(objectAt(document, 'paths') ?? {})) {
    if (!isJsonObject(item)) continue;
    for (const [key, operation] of Object.entries(item)) {
      const responses = OPERATION_KEYS.has(key) ? objectAt(operation, 'responses') : undefined;
      if (responses) found.push(responses);
    }
  }
  return found;
}

export function shareRepeatedResponses(document: JsonObject): void {
  const all = operationResponses(document);
  const uses = new Map<string, number>();
  for (const responses of all) {
    for (const response of Object.values(responses)) {
      const text = JSON.stringify(response);
      uses.set(text, (uses.get(text) ?? 0) + 1);
    }
  }
  const shared = { ...objectAt(document, 'components', 'responses') };
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
  document['components'] = { ...objectAt(document, 'components'), responses: shared };
}

// The schema of an answer repeated across responses that differ in their description or example (a route's error
// envelope at each of its statuses) is written once under components.schemas and referenced.
const SHARED_SCHEMA_CHARS_MIN = 200;

function answerMedia(document: JsonObject): JsonObject[] {
  const media: JsonObject[] = [];
  const responses = [
    ...operationResponses(document).flatMap((each) => Object.values(each)),
    ...Object.values(objectAt(document, 'components', 'responses') ?? {}),
  ];
  for (const response of responses) {
    const content = objectAt(response, 'content');
    if (content) media.push(...Object.values(content).filter(isJsonObject));
  }
  return media;
}

export function shareRepeatedSchemas(document: JsonObject): void {
  const media = answerMedia(document);
  const uses = new Map<string, number>();
  for (const each of media) {
    const text = JSON.stringify(each['schema']);
    if (text !== undefined && text.length >= SHARED_SCHEMA_CHARS_MIN) uses.set(text, (uses.get(text) ?? 0) + 1);
  }
  const schemas: JsonObject = { ...objectAt(document, 'components', 'schemas') };
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
  document['components'] = { ...objectAt(document, 'components'), schemas };
}
