import type { EntityManager } from '@mikro-orm/postgresql';
import type { Hex } from 'viem';
import { logger } from '../../common/logger';
import { ChainIntentSequence, IntentSequenceStatus, type SequenceStep } from './compliance-module.entity';
import type { ChainTransaction } from './chain-transaction.entity';
import type { OutcomeHandler } from './outcomes';

/** How a sequence queues one step (ChainService.enqueue). */
export type EnqueueStep = (em: EntityManager, input: { chainId: string; purpose: string; to: string; data: Hex; step: string }) => ChainTransaction;

/**
 * Starts a sequence in the caller's unit of work: its first step is queued now, the others one by
 * one as each before them is confirmed (`sequenceOutcome`). Nothing without steps.
 */
export async function startSequence(
  em: EntityManager,
  enqueue: EnqueueStep,
  input: { chainId: string; purpose: string; subject: string; steps: SequenceStep[] },
): Promise<ChainIntentSequence | null> {
  if (!input.steps.length) return null;
  const [first] = input.steps;
  const intent = enqueue(em, { chainId: input.chainId, purpose: input.purpose, to: first.to, data: first.data as Hex, step: first.step });
  await em.flush();
  const now = new Date();
  const sequence = em.create(ChainIntentSequence, { ...input, currentTxId: intent.id, createdAt: now, updatedAt: now });
  await em.flush();
  return sequence;
}

/** The outcome of a sequence's step, in the transaction that makes it final: the next step queued, or the sequence ended. */
export function sequenceOutcome(enqueue: EnqueueStep): OutcomeHandler {
  return async (em, tx, outcome) => {
    const sequence = await em.findOne(ChainIntentSequence, { currentTxId: tx.id });
    if (!sequence) return;
    sequence.updatedAt = new Date();
    if (!outcome.ok) {
      sequence.status = IntentSequenceStatus.failed;
      sequence.error = `${tx.step ?? tx.purpose}: ${outcome.reason}`;
      logger.error({ sequence: sequence.id, subject: sequence.subject, error: sequence.error }, 'a chain intent sequence failed');
      return;
    }
    const next = sequence.current + 1;
    if (next >= sequence.steps.length) {
      sequence.status = IntentSequenceStatus.done;
      sequence.currentTxId = undefined;
      return;
    }
    const step = sequence.steps[next];
    const intent = enqueue(em, { chainId: sequence.chainId, purpose: sequence.purpose, to: step.to, data: step.data as Hex, step: step.step });
    await em.flush();
    sequence.current = next;
    sequence.currentTxId = intent.id;
  };
}
