import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { typesSource } from '../scripts/openapi-source.ts';
import { servedDocument } from '../scripts/served-document.ts';

// The committed types are those of the document the app serves now: a change of the API regenerates them.
describe('the generated types of @payrail/client', () => {
  it('match the OpenAPI document the running app serves', async () => {
    const committed = readFileSync(new URL('../generated/openapi.ts', import.meta.url), 'utf8');
    const fresh = await typesSource(await servedDocument());
    expect(fresh === committed, 'generated/openapi.ts is stale: run npm run generate -w @payrail/client').toBe(true);
  });
});
