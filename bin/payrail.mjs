#!/usr/bin/env node
// Payrail runs TypeScript directly with Node's type stripping, which needs Node 24 or newer.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `payrail needs Node.js 24 or newer (this is ${process.version}). ` +
      'Inside the project, `npx payrail …` or `npm run -s payrail -- …` uses the pinned Node from node_modules.\n',
  );
  process.exit(1);
}
await import('../src/main.ts');
