import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/payments/store/schema.ts',
  out: './src/platform/migrations',
});
