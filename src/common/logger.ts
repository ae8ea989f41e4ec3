import pino from 'pino';
import { currentScope } from './request-scope';
import { redactText, safeError } from './redact';

/**
 * One logger; every line carries the request id of the scope it was written in. An error (`err`,
 * an Error or its message) is written through safeError and a message through redactText, so no
 * RPC key in a URL and no request body reaches a log line (src/common/redact.ts).
 */
export const logger = pino({
  level: process.env.LOG_LEVEL?.toLowerCase() || 'info',
  base: undefined,
  serializers: { err: safeError, error: safeError },
  hooks: {
    logMethod(args, method) {
      method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>);
    },
  },
  mixin() {
    const scope = currentScope();
    return scope ? { requestId: scope.requestId } : {};
  },
});
