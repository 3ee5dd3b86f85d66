import { writeFile } from 'node:fs/promises';
import { typesSource } from './openapi-source.ts';
import { servedDocument } from './served-document.ts';

// npm run generate -w @payrail/client: writes generated/openapi.ts from the document the app serves.
const target = new URL('../generated/openapi.ts', import.meta.url);
await writeFile(target, await typesSource(await servedDocument()));
console.log(`wrote ${target.pathname}`);
process.exit(0); // the embedded database's worker keeps the event loop alive
