import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The Prisma CLI downloads a native schema engine unless one is named; that download fails on
// machines without internet. `generate`, `validate` and `format` only need an existing file, so
// point at the committed stand-in before the config is defined (a real engine named in the
// environment still wins). Migrations are applied by src/migrate.ts, not by the engine.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, 'prisma', 'no-engine.sh');

export default defineConfig({
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  datasource: {
    // Only the engine-backed commands read this; `generate` does not connect.
    url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/credit',
  },
});
