// The suite's in-process gateways answer thousands of requests: their one `info` line each
// (src/ops/request-log.ts) would bury a failure's output. A test that reads log lines starts a
// child gateway with the LOG_LEVEL it needs.
process.env.LOG_LEVEL ??= 'warn';
