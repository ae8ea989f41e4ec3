/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/log-level.ts'],
  // A limit for hangs, not a speed: a gateway's start on the embedded database (PGlite, every
  // migration) in a grown worker took over 60 s in a beforeAll.
  testTimeout: 120_000,
  // Each worker has a database of its own (test/support/database.ts).
  maxWorkers: 2,
  // A worker grows with every file it runs (4–5 GB resident after an hour of the embedded pass), and
  // a gateway's start in it then took over a minute. Jest starts a fresh worker once an idle one is
  // over this.
  workerIdleMemoryLimit: '1.5GB',
};
