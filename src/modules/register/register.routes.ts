import type { MikroORM } from '@mikro-orm/postgresql';
import { Router, type Request, type Response } from 'express';
import { graphqlPrincipal } from '../../access/graphql-principal';
import { consoleSessionOf } from '../../access/console-session-cookie';
import { hasRole } from '../../access/principal';
import { ERROR_TABLE, toDomainError } from '../../common/errors';
import type { ContextServices as Services } from '../../access/graphql-context';
import { positionsCsv, registerCsv, statementCsv } from './register-csv';

export const REGISTER_CSV_PATH = '/ops/register.csv';
export const POSITIONS_CSV_PATH = '/ops/positions.csv';
export const STATEMENT_CSV_PATH = '/ops/statement.csv';

/**
 * The register's CSV exports for ops (docs/register.md): `GET /ops/register.csv?shareClassId&asOf`,
 * `GET /ops/positions.csv?shareClassId` and `GET /ops/statement.csv?investorId&from&to`, with `Authorization: Bearer <ops token>`
 * (role viewer), as /graphql takes it. Fail closed: no token, a token that is not an ops token
 * (a distributor's included) or an invalid one gets nothing.
 */
export function registerRoutes(orm: MikroORM, services: Services): Router {
  const router = Router();
  router.get(REGISTER_CSV_PATH, (req, res) =>
    csvAnswer(req, res, orm, services, async (em) => {
      const r = await services.register.read(em, queryText(req, 'shareClassId'), queryText(req, 'asOf'));
      return { name: `register-${r.shareClassId}-${r.asOf}.csv`, body: registerCsv(r) };
    }),
  );
  router.get(POSITIONS_CSV_PATH, (req, res) =>
    csvAnswer(req, res, orm, services, async (em) => {
      const p = await services.positions.read(em, queryText(req, 'shareClassId'));
      return { name: `positions-${p.shareClassId}-${p.at.toISOString().slice(0, 10)}.csv`, body: positionsCsv(p) };
    }),
  );
  router.get(STATEMENT_CSV_PATH, (req, res) =>
    csvAnswer(req, res, orm, services, async (em) => {
      const [investorId, from, to] = [queryText(req, 'investorId'), queryText(req, 'from'), queryText(req, 'to')];
      return { name: `statement-${investorId}-${from}-${to}.csv`, body: await statementCsv(em, investorId, from, to) };
    }),
  );
  return router;
}

async function csvAnswer(
  req: Request,
  res: Response,
  orm: MikroORM,
  services: Services,
  make: (em: ReturnType<MikroORM['em']['fork']>) => Promise<{ name: string; body: string }>,
): Promise<void> {
  const em = orm.em.fork();
  try {
    const principal = await graphqlPrincipal(services, em, req.get('authorization'), consoleSessionOf(req)).catch(() => null);
    if (!principal || principal.kind === 'anonymous') {
      res.status(401).type('text/plain').send('an ops token is required');
      return;
    }
    if (principal.kind !== 'ops' || !hasRole(principal.roles, 'viewer')) {
      res.status(403).type('text/plain').send('ops only');
      return;
    }
    const { name, body } = await make(em);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
      .set('cache-control', 'no-store')
      .send(body);
  } catch (err) {
    const { error } = toDomainError(err);
    res.status(ERROR_TABLE[error.code].http).type('text/plain').send(error.message);
  }
}

/** A query parameter as the text the service validates; absent is empty. */
function queryText(req: Request, name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a repeated parameter (an array) reads as its values joined by commas, which the service then refuses as malformed
  return String(req.query[name] ?? '');
}
