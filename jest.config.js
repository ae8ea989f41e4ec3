/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  // Each worker has a database of its own (test/support/database.ts).
  maxWorkers: 2,
};
