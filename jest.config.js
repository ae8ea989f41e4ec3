/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  // jose is ESM-only: test/support/jose-cjs.js transpiles it once for jest's CommonJS runtime.
  globalSetup: '<rootDir>/test/support/jose-cjs.js',
  moduleNameMapper: { '^jose$': require('./test/support/jose-cjs.js').JOSE_CJS_DIR + '/index.js' },
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  // Each worker has a database of its own (test/support/database.ts).
  maxWorkers: 2,
};
