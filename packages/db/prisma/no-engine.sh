#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded on these machines.
# `prisma generate`, `validate` and `format` only need the file to exist; anything that would
# really run the engine (`migrate diff/deploy/status`, `db push`) fails here on purpose.
# Migrations are applied by src/migrate.ts instead.
echo "prisma schema engine is not available here; apply migrations with 'pnpm db:migrate'" >&2
exit 1
