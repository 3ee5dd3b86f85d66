import { startHarness } from '../../../test/support/harness.ts';

// The document the app serves at /openapi.json, from the app built on an embedded database (as the tests build it).
export async function servedDocument(): Promise<Record<string, unknown>> {
  const harness = await startHarness('pglite');
  try {
    const response = await harness.app.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`/openapi.json answered ${response.statusCode}`);
    return response.json();
  } finally {
    await harness.close();
  }
}
