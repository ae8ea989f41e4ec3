import type { MikroORM } from '@mikro-orm/postgresql';
import { Router, type Request, type Response } from 'express';
import { GraphQLError } from 'graphql';
import { failure, success } from '../../rest-compat/envelope';
import { consoleSessionOf, fromOwnOrigin, sessionCookieHeader } from '../access/console-session-cookie';
import type { ContextServices as Services } from '../access/graphql-context';
import { graphqlPrincipal } from '../access/graphql-principal';
import { ERROR_TABLE, toDomainError } from '../common/errors';
import { logger } from '../common/logger';

/** Where the page opens and ends its session (console/src/api/session.ts). */
export const CONSOLE_SESSION_PATH = '/console/session';

/**
 * The console's sign-in and sign-out (docs/console.md#sessions):
 * - `POST` with `Authorization: Bearer ops_…` (the token of a sign-in link or of the sign-in form,
 *   checked and counted against guesses as on /graphql) opens a session and sets its cookie
 *   (console-session-cookie.ts); the page then forgets the token. A body is neither needed nor read.
 * - `DELETE` ends the session of the cookie it carries and clears the cookie.
 * Both answer only a request from the console's own origin (403 otherwise): a page elsewhere can
 * neither sign a browser in under someone's token nor sign it out. Answers are `no-store`.
 */
export function consoleSessionRouter(orm: MikroORM, services: Services): Router {
  const router = Router();
  router.use((req, res, next) => {
    res.set('cache-control', 'no-store');
    if (fromOwnOrigin(req)) return next();
    res.status(403).json(failure("the console's session is opened and ended from the console's own page only"));
  });
  router.post('/', (req, res) => void answer(res, () => open(req, res)));
  router.delete('/', (req, res) => void answer(res, () => end(req, res)));
  return router;

  async function open(req: Request, res: Response): Promise<void> {
    const em = orm.em.fork();
    const authorization = req.get('authorization');
    const principal = authorization ? await graphqlPrincipal(services, em, authorization) : null;
    if (!principal || principal.kind !== 'ops' || !principal.tokenId) {
      res.status(401).json(failure('an ops token is required (Authorization: Bearer ops_…)'));
      return;
    }
    const session = await services.consoleSession.open(em, principal.tokenId);
    const maxAge = Math.max(1, Math.round((session.expiresAt.getTime() - services.clock.now().getTime()) / 1000));
    res.set('set-cookie', sessionCookieHeader(session.secret, maxAge, req.secure));
    res.status(201).json(success({ name: principal.name, roles: principal.roles, expiresAt: session.expiresAt.toISOString() }));
  }

  async function end(req: Request, res: Response): Promise<void> {
    const secret = consoleSessionOf(req);
    if (secret) await services.consoleSession.end(orm.em.fork(), secret);
    res.set('set-cookie', sessionCookieHeader('', 0, req.secure));
    res.status(204).end();
  }
}

/** A refusal as its error says (an invalid token: 401; too many guesses: 429), never a 500 for a known one. */
async function answer(res: Response, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (res.headersSent) return;
    if (err instanceof GraphQLError) {
      const http = err.extensions.http as { status?: number } | undefined;
      res.status(http?.status ?? 401).json(failure(err.message));
      return;
    }
    const { error, log } = toDomainError(err);
    if (log) logger[log]({ err }, 'console session');
    res.status(ERROR_TABLE[error.code].http).json(failure(error.message));
  }
}
