import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.ts';

// The surface a newcomer meets first: health, docs, request ids. One engine is enough here.
describe('service surface', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness('pglite');
  });
  afterAll(async () => harness?.close());

  it('answers /health without auth', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('echoes a client X-Request-Id and makes one up otherwise', async () => {
    const echoed = await harness.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'req-abc.123' } });
    expect(echoed.headers['x-request-id']).toBe('req-abc.123');
    const generated = await harness.app.inject({ method: 'GET', url: '/api/v1/payments' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await harness.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document with every route and its schemas', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/v1/payments',
      '/api/v1/payments/{token}',
      '/api/admin/v1/merchants',
      '/api/admin/v1/merchants/{id}',
      '/api/admin/v1/merchants/{id}/keys/{environment}/rotate',
      '/api/admin/v1/merchants/{id}/disable',
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    const createBody = JSON.stringify(document.paths['/api/v1/payments'].post.requestBody);
    expect(createBody).toContain('callbackUrl');
    expect(createBody).toContain('callback_url');
    expect(document.components.securitySchemes.merchantKey.scheme).toBe('bearer');
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('answers unknown routes with a coded 404', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, errors: [{ code: 'not_found' }] });
  });
});
