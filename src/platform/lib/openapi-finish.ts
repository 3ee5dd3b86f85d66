import { objectAt, objectsIn } from './json-path.ts';
import { readDemoValues, withDemoValues } from './openapi-demo-values.ts';
import { documentErrorResponse } from './openapi-error-examples.ts';
import { orderOperations } from './openapi-operation-order.ts';
import { addParameterExamples } from './openapi-parameter-examples.ts';
import { shareRepeatedResponses, shareRepeatedSchemas } from './openapi-shared-responses.ts';
import { isJsonObject } from './type-guards.ts';

// The last pass over the generated document (@fastify/swagger's transformObject): what a reader of Swagger UI needs
// that the routes' schemas do not carry, in one place.

type Json = Record<string, unknown>;
const OPERATION_KEYS = ['get', 'post', 'put', 'patch', 'delete'] as const;

// The operations whose example cannot succeed on the demo seed: what it answers instead, said in the operation and
// as `x-example-answers` (test/payments/integration/openapi-examples.test.ts holds the server to it).
const EXAMPLE_ANSWERS: Readonly<Record<string, { status: number; code: string; why: string }>> = {
  receiveProviderCallback: { status: 401, code: 'unauthorized', why: "only a gateway can call it, with a JWT signed with the gateway's sign_key" },
  adminResolveConflict: { status: 404, code: 'not_found', why: 'the demo has no conflict to resolve' },
  adminImportSettlementFile: { status: 422, code: 'invalid_settlement_file', why: 'the file Try it out sends is no settlement file: pick one' },
  adminGetReconciliation: { status: 404, code: 'not_found', why: 'the demo has no reconciliation: import a file, then use its token' },
  adminListReconciliationItems: { status: 404, code: 'not_found', why: 'the demo has no reconciliation: import a file, then use its token' },
  adminReconciliationReportCsv: { status: 404, code: 'not_found', why: 'the demo has no reconciliation: import a file, then use its token' },
  adminRejectMerchant: { status: 409, code: 'invalid_state', why: 'the demo merchant was approved, not waiting for review' },
  getEvent: { status: 404, code: 'not_found', why: 'event ids are random: take one from `GET /api/v1/events`' },
  resendEvent: { status: 404, code: 'not_found', why: 'event ids are random: take one from `GET /api/v1/events`' },
  getTestClock: { status: 404, code: 'not_found', why: 'the demo has no test clock with this id: create one, then use its id' },
  advanceTestClock: { status: 404, code: 'not_found', why: 'the demo has no test clock with this id: create one, then use its id' },
};

function describeExampleAnswer(operation: Json): void {
  const answer = EXAMPLE_ANSWERS[String(operation['operationId'])];
  if (answer === undefined) return;
  operation['x-example-answers'] = { status: answer.status, code: answer.code };
  const description = String(operation['description'] ?? '');
  operation['description'] =
    `${description}${description === '' ? '' : '\n\n'}On the demo server its example answers ${answer.status} \`${answer.code}\`: ${answer.why}.`;
}

function describeSuccess(operation: Json, response: Json): void {
  if (response['description'] !== 'Default Response') return;
  const summary = String(operation['summary'] ?? operation['operationId'] ?? 'the operation');
  response['description'] = `Success: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
}

function finishOperation(operation: Json): void {
  addParameterExamples(operation);
  describeExampleAnswer(operation);
  const security = objectsIn(operation['security']);
  for (const [status, response] of Object.entries(objectAt(operation, 'responses') ?? {})) {
    if (!isJsonObject(response)) continue;
    if (status.startsWith('2')) describeSuccess(operation, response);
    else if (Number(status) >= 400) documentErrorResponse(response, Number(status), security);
  }
}

export function finishOpenApiDocument<T extends object>(openApiDocument: T, dataDir: string): T {
  if (!isJsonObject(openApiDocument)) return openApiDocument;
  for (const item of Object.values(objectAt(openApiDocument, 'paths') ?? {})) {
    for (const method of OPERATION_KEYS) {
      const operation = objectAt(item, method);
      if (operation !== undefined) finishOperation(operation);
    }
  }
  orderOperations(openApiDocument);
  const document = withDemoValues(openApiDocument, readDemoValues(dataDir));
  shareRepeatedResponses(document);
  shareRepeatedSchemas(document);
  return document;
}
