import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { failure, success } from '../../rest-compat/envelope';
import { toDomainError } from '../common/errors';
import { logger } from '../common/logger';
import { runInScope } from '../common/request-scope';
import type { ContextServices as Services } from '../access/graphql-context';
import { SIGNATURE_HEADER, verifySignature } from './signature';

/** Where providers call back: outside /api/v1, so it is neither surface R nor surface O. */
export const SUPPLY_PREFIX = '/supply';
export const callbackPath = (providerId: string) => `${SUPPLY_PREFIX}/callbacks/${encodeURIComponent(providerId)}`;

/**
 * `POST /supply/callbacks/:providerId` — a supply-side platform reports an outcome of an order it
 * was pushed: body `{ orderId, orderReference, status: accepted|rejected|settled|failed, note?,
 * reason?, transferHash? }`, signed with the provider's `callbackSecret` (src/supply/signature.ts).
 * Only the provider can call it: an unsigned, forged, tampered or stale request is 401 and
 * changes nothing; a provider can only speak of orders pushed to it, by the reference it gave.
 * The outcome is written by the two-step service (history entry by `<providerId>`), the same
 * rule as the ops mutation `recordSupplyOutcome`. Answers in the envelope.
 */
export function supplyCallbackRouter(deps: { orm: MikroORM; services: Services }): express.Router {
  const router = express.Router();
  router.post('/callbacks/:providerId', express.raw({ type: () => true, limit: '64kb' }), async (req: Request, res: Response) => {
    const providerId = String(req.params.providerId);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const secret = deps.services.supply.callbackSecret(providerId);
    if (!secret || !verifySignature(secret, req.get(SIGNATURE_HEADER), raw, deps.services.clock.now())) {
      logger.warn({ providerId }, 'supply callback refused: missing or invalid signature');
      res.status(401).json(failure('invalid signature'));
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      res.status(400).json(failure('malformed JSON body'));
      return;
    }
    await runInScope({ actor: providerId, principal: `supply:${providerId}` }, async () => {
      try {
        const order = await deps.services.twoStep.recordProviderCallback(deps.orm.em.fork(), providerId, {
          orderId: body.orderId,
          outcome: body.status,
          orderReference: body.orderReference,
          note: body.note,
          reason: body.reason,
          transferHash: body.transferHash,
        });
        res.status(200).json(success({ orderId: order.id, status: order.status }));
      } catch (err) {
        const { error, log } = toDomainError(err);
        if (log) logger[log]({ err, providerId }, 'supply callback failed');
        if (error.retryAfterSeconds !== undefined) res.set('retry-after', String(error.retryAfterSeconds));
        res.status(error.httpStatus).json(failure(error.message));
      }
    });
  });
  return router;
}
