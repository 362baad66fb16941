// Shared jest settings: swc with legacy decorators and decorator metadata (Nest injects
// `undefined` silently without them), node environment, UTC clock.
module.exports = (rootDir, displayName, extra = {}) => ({
  rootDir,
  displayName,
  testEnvironment: 'node',
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
