import pino from 'pino';
import { currentScope } from './request-scope';

/** One logger; every line carries the request id of the scope it was written in. */
export const logger = pino({
  level: process.env.LOG_LEVEL?.toLowerCase() || 'info',
  base: undefined,
  mixin() {
    const scope = currentScope();
    return scope ? { requestId: scope.requestId } : {};
  },
});
