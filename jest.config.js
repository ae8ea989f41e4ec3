/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  setupFiles: ['reflect-metadata'],
  // A hook that starts a gateway on the embedded database (PGlite, every migration) took over 60 s
  // once beside another worker's chain drill on this 2-core machine: a limit for hangs, not a speed.
  testTimeout: 120_000,
  // Each worker has a database of its own (test/support/database.ts).
  maxWorkers: 2,
};
