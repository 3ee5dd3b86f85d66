import { describe, expect, it } from 'vitest';
import { interpretAdapterAnswer, type AdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';

function respond(body: unknown): AdapterAnswer {
  return { kind: 'response', body };
}

const approvedBody = { result: true, status: 'approved', gateway_token: 'gw_1', logs: [] };

describe('interpretAdapterAnswer: transport failures stay pending with a system error', () => {
  it.each<[string, AdapterAnswer, RegExp]>([
    ['a timeout', { kind: 'timeout' }, /timeout/],
    ['a network error', { kind: 'network_error', message: 'ECONNREFUSED' }, /unreachable: ECONNREFUSED/],
    ['invalid JSON', { kind: 'invalid_json' }, /not valid JSON/],
    ['HTTP 500', { kind: 'http_error', statusCode: 500 }, /HTTP 500/],
    ['HTTP 503', { kind: 'http_error', statusCode: 503 }, /HTTP 503/],
    ['HTTP 400 (adapters must answer 200)', { kind: 'http_error', statusCode: 400 }, /HTTP 400; adapters must answer 200/],
    ['HTTP 404', { kind: 'http_error', statusCode: 404 }, /HTTP 404/],
  ])('keeps the payment pending on %s', (_label, answer, systemError) => {
    const outcome = interpretAdapterAnswer(answer);
    expect(outcome.status).toBe('pending');
    expect(outcome.declineReason).toBeNull();
    expect(outcome.systemError).toMatch(systemError);
  });

  it.each([
    ['null', null],
    ['an array', [approvedBody]],
    ['a string', 'approved'],
    ['a number', 200],
    ['true', true],
  ])('keeps the payment pending when the body is %s, not a JSON object', (_label, body) => {
    const outcome = interpretAdapterAnswer(respond(body));
    expect(outcome.status).toBe('pending');
    expect(outcome.systemError).toMatch(/not a JSON object/);
  });
});

describe('interpretAdapterAnswer: approved only on an explicit answer', () => {
  it('approves result: true with status approved and keeps the gateway token', () => {
    const outcome = interpretAdapterAnswer(respond(approvedBody));
    expect(outcome).toMatchObject({ status: 'approved', declineReason: null, gatewayToken: 'gw_1', systemError: null });
  });

  it.each<[string, Record<string, unknown>]>([
    ['result is missing', { status: 'approved' }],
    ['result is the string "true"', { result: 'true', status: 'approved' }],
    ['status is missing', { result: true }],
    ['status is an unknown word', { result: true, status: 'success' }],
    ['status is upper case', { result: true, status: 'APPROVED' }],
    ['status is refunded (not an answer to a pay request)', { result: true, status: 'refunded' }],
    ['status is not a string', { result: true, status: 1 }],
  ])('stays pending with a system error when %s', (_label, body) => {
    const outcome = interpretAdapterAnswer(respond(body));
    expect(outcome.status).toBe('pending');
    expect(outcome.systemError).not.toBeNull();
  });

  it('stays pending without a system error on status pending', () => {
    const outcome = interpretAdapterAnswer(respond({ result: true, status: 'pending', gateway_token: 'gw_2' }));
    expect(outcome).toMatchObject({ status: 'pending', systemError: null, gatewayToken: 'gw_2' });
  });
});

describe('interpretAdapterAnswer: a provider timeout (result false, code 408) is not a decline', () => {
  it.each([[408], ['408']])('stays pending on code %j and records it', (code) => {
    const outcome = interpretAdapterAnswer(respond({ result: false, code, error: 'timeout', logs: [{ kind: 'pay' }] }));
    expect(outcome).toMatchObject({ status: 'pending', declineReason: null, logs: [{ kind: 'pay' }] });
    expect(outcome.systemError).toMatch(/408/);
  });

  it('declines result false with another code', () => {
    expect(interpretAdapterAnswer(respond({ result: false, code: 500, error: 'boom' })).status).toBe('declined');
  });
});

describe('interpretAdapterAnswer: decline detection and reason (spec 7.6, 7.7, 7.9)', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['result false', { result: false, status: 'approved', details: 'insufficient funds' }, 'gateway response error: insufficient funds'],
    ['status declined with result true', { result: true, status: 'declined', details: 'do not honor' }, 'gateway response error: do not honor'],
    ['an error key at the root', { result: true, status: 'approved', error: 'card blocked' }, 'gateway response error: card blocked'],
    ['an error key whose value is null', { result: true, status: 'approved', error: null, reason: 'r' }, 'gateway response error: r'],
    ['declination_reason before details', { status: 'declined', declination_reason: 'A', details: 'B', reason: 'C', error: 'D' }, 'gateway response error: A'],
    ['details before reason', { status: 'declined', details: 'B', reason: 'C', error: 'D' }, 'gateway response error: B'],
    ['reason before error', { status: 'declined', reason: 'C', error: 'D' }, 'gateway response error: C'],
    ['error last', { result: false, error: 'D' }, 'gateway response error: D'],
    ['skipping an empty declination_reason', { status: 'declined', declination_reason: '', details: 'B' }, 'gateway response error: B'],
    ['skipping a blank details', { status: 'declined', details: '   ', reason: 'C' }, 'gateway response error: C'],
    ['skipping a non-string details', { status: 'declined', details: { code: 5 }, reason: 'C' }, 'gateway response error: C'],
    ['no reason at all', { result: false }, 'Declined payment must have a reason.'],
    ['only empty reasons', { status: 'declined', details: '', reason: '', error: '' }, 'Declined payment must have a reason.'],
    ['only a non-string error', { status: 'declined', error: 42 }, 'Declined payment must have a reason.'],
  ])('declines on %s', (_label, body, declineReason) => {
    const outcome = interpretAdapterAnswer(respond(body));
    expect(outcome.status).toBe('declined');
    expect(outcome.declineReason).toBe(declineReason);
    expect(outcome.systemError).toBeNull();
  });

  it('keeps the gateway token and logs of a decline', () => {
    const outcome = interpretAdapterAnswer(respond({ result: true, status: 'declined', details: 'x', gateway_token: 'gw_3', logs: [{ status: 402 }] }));
    expect(outcome).toMatchObject({ gatewayToken: 'gw_3', logs: [{ status: 402 }] });
  });
});

describe('interpretAdapterAnswer: redirect_request', () => {
  const redirect = { url: 'https://acs.example/3ds', type: 'post', params: { PaReq: 'abc' } };

  it.each<[string, Record<string, unknown>, unknown]>([
    ['the snake_case key', { redirect_request: redirect }, redirect],
    ['the camelCase key', { redirectRequest: redirect }, redirect],
    ['snake_case over camelCase', { redirect_request: redirect, redirectRequest: { url: 'https://other.example', type: 'get' } }, redirect],
    ['camelCase when snake_case is null', { redirect_request: null, redirectRequest: redirect }, redirect],
    ['without params', { redirect_request: { url: 'http://acs.example', type: 'get' } }, { url: 'http://acs.example', type: 'get' }],
    ['without extra keys', { redirect_request: { ...redirect, html: '<x>' } }, redirect],
  ])('takes %s', (_label, extra, expected) => {
    const outcome = interpretAdapterAnswer(respond({ result: true, status: 'pending', ...extra }));
    expect(outcome.redirectRequest).toEqual(expected);
  });

  it.each(['get', 'post', 'post_iframes', 'get_with_processing', 'redirect_html'])('accepts the type %s', (type) => {
    const outcome = interpretAdapterAnswer(respond({ result: true, status: 'pending', redirect_request: { url: 'https://a.example', type } }));
    expect(outcome.redirectRequest?.type).toBe(type);
  });

  it.each<[string, unknown]>([
    ['a string', 'https://acs.example'],
    ['an array', [redirect]],
    ['a missing url', { type: 'get' }],
    ['a non-string url', { url: 5, type: 'get' }],
    ['a javascript: url', { url: 'javascript:alert(1)', type: 'get' }],
    ['a relative url', { url: '/3ds', type: 'get' }],
    ['an unknown type', { url: 'https://acs.example', type: 'put' }],
    ['a missing type', { url: 'https://acs.example' }],
    ['params that are an array', { url: 'https://acs.example', type: 'post', params: ['a'] }],
    ['params that are a string', { url: 'https://acs.example', type: 'post', params: 'a=1' }],
  ])('ignores a redirect with %s, without changing the status', (_label, redirectRequest) => {
    const outcome = interpretAdapterAnswer(respond({ result: true, status: 'pending', redirect_request: redirectRequest }));
    expect(outcome.redirectRequest).toBeNull();
    expect(outcome.status).toBe('pending');
  });
});

describe('interpretAdapterAnswer: optional fields kept only when well typed', () => {
  const wellTyped = {
    gateway_token: 'gw_9',
    gateway_details: { terminal: 't1' },
    provider_response_data: { rrn: '123' },
    recurring_gateway_token: 'rec_1',
    requisites: { card: '4111', holder: 'IVAN' },
    logs: [{ kind: 'pay', status: 200 }],
    amount: 1050,
    currency: 'EUR',
  };

  it('keeps every well-typed field', () => {
    expect(interpretAdapterAnswer(respond({ ...approvedBody, ...wellTyped }))).toMatchObject({
      gatewayToken: 'gw_9',
      gatewayDetails: { terminal: 't1' },
      providerResponseData: { rrn: '123' },
      recurringGatewayToken: 'rec_1',
      requisites: { card: '4111', holder: 'IVAN' },
      logs: [{ kind: 'pay', status: 200 }],
      amount: 1050,
      currency: 'EUR',
    });
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a numeric gateway_token', { gateway_token: 12 }, { gatewayToken: null }],
    ['an empty gateway_token', { gateway_token: '' }, { gatewayToken: null }],
    ['gateway_details as an array', { gateway_details: [1] }, { gatewayDetails: null }],
    ['provider_response_data as a string', { provider_response_data: 'ok' }, { providerResponseData: null }],
    ['a boolean recurring_gateway_token', { recurring_gateway_token: true }, { recurringGatewayToken: null }],
    ['requisites as a string', { requisites: '4111' }, { requisites: null }],
    ['logs as an object', { logs: { kind: 'pay' } }, { logs: [] }],
    ['a fractional amount', { amount: 10.5 }, { amount: null }],
    ['an amount as a string', { amount: '1050' }, { amount: null }],
    ['a negative amount', { amount: -1 }, { amount: null }],
    ['an unsafe integer amount', { amount: 2 ** 53 }, { amount: null }],
    ['a numeric currency', { currency: 978 }, { currency: null }],
  ])('ignores %s and still approves', (_label, illTyped, expected) => {
    const outcome = interpretAdapterAnswer(respond({ ...approvedBody, ...illTyped }));
    expect(outcome.status).toBe('approved');
    expect(outcome).toMatchObject(expected);
  });

  it('keeps only the log items that are objects', () => {
    const outcome = interpretAdapterAnswer(respond({ ...approvedBody, logs: ['text', { kind: 'pay' }, null, [1], { kind: 'status' }] }));
    expect(outcome.logs).toEqual([{ kind: 'pay' }, { kind: 'status' }]);
  });

  it('keeps at most the first 100 log items', () => {
    const logs = Array.from({ length: 150 }, (_, index) => ({ duration: index }));
    const outcome = interpretAdapterAnswer(respond({ ...approvedBody, logs }));
    expect(outcome.logs).toHaveLength(100);
    expect(outcome.logs[99]).toEqual({ duration: 99 });
  });

  it('accepts amount 0', () => {
    expect(interpretAdapterAnswer(respond({ ...approvedBody, amount: 0 })).amount).toBe(0);
  });
});
