import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/payments/store/schema.ts',
    './src/ledger/store/schema.ts',
    './src/core-banking/store/schema.ts',
    './src/sandbox-adapter/store-schema.ts',
    './src/back-office/store/schema.ts',
  ],
  out: './src/platform/migrations',
});
