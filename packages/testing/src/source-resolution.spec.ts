/**
 * Tests and typechecks read the workspace packages' sources (the `source` export condition in
 * each package.json, enabled by jest.preset.js and the root tsconfig.json), never a stale `dist`:
 * a change to a package is seen by the next `pnpm test` without a build.
 */
describe('workspace packages in tests', () => {
  it.each(['@credit/contracts/errors', '@credit/db/prisma-client', '@credit/config/fragments'])(
    '%s resolves to its TypeScript source',
    (specifier) => {
      expect(require.resolve(specifier)).toMatch(/\/packages\/[a-z-]+\/src\/[a-z-]+\.ts$/);
    },
  );
});
