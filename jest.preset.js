// Shared jest settings: swc with legacy decorators and decorator metadata (Nest injects
// `undefined` silently without them), node environment, UTC clock, workspace sources.
module.exports = (rootDir, displayName, extra = {}) => ({
  rootDir,
  displayName,
  testEnvironment: 'node',
  // Workspace packages resolve to their sources (the `source` export condition), so a test sees
  // the code as it is now, not the last build.
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
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
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  ...extra,
});
