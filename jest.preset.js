// Shared jest settings: swc with legacy decorators and decorator metadata (Nest injects
// `undefined` silently without them), node environment, UTC clock, workspace sources.
module.exports = (rootDir, displayName, extra = {}) => ({
  rootDir,
  displayName,
  testEnvironment: 'node',
  // Workspace packages resolve to their sources (the `source` export condition), so a test sees
  // the code as it is now, not the last build.
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  resolver: require.resolve('./jest-resolver.js'),
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
    '/node_modules/\\.pnpm/cookie@2\\.[^/]+/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  // Third-party ESM that the code under test requires (Node 20.20 does natively, jest cannot):
  // Fastify's `inject` (the MCP tools' in-process REST calls) loads cookie 2, an ES module.
  transformIgnorePatterns: ['^(?!.*/\\.pnpm/cookie@2\\.).*/node_modules/'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  ...extra,
});
