import { ForcedTransfer, ForcedTransferStatus } from '../../src/modules/approval/forced-transfer.entity';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { DomainEvent } from '../../src/events/event.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { HoldingLot } from '../../src/modules/holding/holding-lot.entity';
import { aOneStepOrder } from '../support/one-step.factories';
import { anInvestor } from '../support/factories';
import { approvedCall, approverToken } from '../support/approval.factories';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * A forced transfer (court order, estate): one ops principal asks, another approves, the gateway
 * sends T-REX forcedTransfer through its intents, and the register moves with the tokens.
 */
jest.setTimeout(240_000);

const REQUEST_FORCED_TRANSFER = `mutation($input: ForcedTransferInput!) { requestForcedTransfer(input: $input) { id status } }`;

describe('Forced transfer on chain', () => {
  const world = onTheWorkerChain();

  /** A market whose investor holds 800 tokens on chain, and a second investor with a whitelisted wallet. */
  async function twoHolders() {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const fromWallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, fromWallet);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    expect((await finalOrder(gw, order.id)).status).toBe('settled');
    const heir = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const toWallet = randomWallet();
    await aWhitelistedWallet(gw, heir.id, toWallet);
    return { m, fromWallet, heir, toWallet };
  }

  it('moves the tokens on chain once approved, and the register with them: the receiver keeps the lots’ settlement dates', async () => {
    const { gw, chain } = world;
    const { m, fromWallet, heir, toWallet } = await twoHolders();
    const lotBefore = await gw.em().findOneOrFail(HoldingLot, { investor: m.investor.id });
    const input = {
      shareClassId: m.shareClass.id,
      chainId: '31337',
      fromInvestorId: m.investor.id,
      toInvestorId: heir.id,
      quantity: '300',
      reason: 'estate of the late holder',
    };

    // Requested only: nothing moves until a second principal approves.
    const requested = await gw.graphql(REQUEST_FORCED_TRANSFER, { input }, { token: await gw.opsToken() });
    expect(requested.body.errors).toBeUndefined();
    expect(await gw.em().count(ChainTransaction, { purpose: 'forced.transfer' })).toBe(0);
    const self = await gw.graphql(
      `mutation($id: ID!) { approveRequest(id: $id) { id } }`,
      { id: requested.body.data!.requestForcedTransfer.id },
      { token: await gw.opsToken() },
    );
    expect(self.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const approved = await gw.graphql(
      `mutation($id: ID!) { approveRequest(id: $id) { status result } }`,
      { id: requested.body.data!.requestForcedTransfer.id },
      { token: await approverToken(gw) },
    );
    expect(approved.body.errors).toBeUndefined();
    expect(approved.body.data!.approveRequest).toMatchObject({ status: 'executed', result: { fromWallet, toWallet, status: 'sending' } });

    const done = await eventually('the forced transfer done', async () => {
      const t = await gw.em().findOneOrFail(ForcedTransfer, { approvalRequestId: requested.body.data!.requestForcedTransfer.id });
      if (t.status === ForcedTransferStatus.failed) throw new Error(t.error);
      return t.status === ForcedTransferStatus.done ? t : undefined;
    });
    const tx = await gw.em().findOneOrFail(ChainTransaction, { id: done.transactionId });
    expect([tx.purpose, tx.status, tx.hash]).toEqual(['forced.transfer', ChainTxStatus.confirmed, done.hash]);
    expect(await chain.balanceOf(m.token.contractAddress, fromWallet)).toBe(500_000_000n);
    expect(await chain.balanceOf(m.token.contractAddress, toWallet)).toBe(300_000_000n);

    // The register: 500 and 300, the receiver's lot dated as the lot it left, an event for each side.
    const balance = async (investorId: string) => (await gw.em().findOneOrFail(Holding, { investor: investorId, shareClass: m.shareClass.id })).balance;
    expect(Number(await balance(m.investor.id))).toBe(500);
    expect(Number(await balance(heir.id))).toBe(300);
    const heirLots = await gw.em().find(HoldingLot, { investor: heir.id });
    expect(heirLots.map((l) => [Number(l.remaining), l.settledAt.getTime()])).toEqual([[300, lotBefore.settledAt.getTime()]]);
    const events = await gw.em().find(DomainEvent, { type: 'holding.changed', payload: { forcedTransfer: done.id } });
    expect(events).toHaveLength(2);
  });

  it('is refused at request when the holder holds fewer tokens, or the receiver has no whitelisted wallet on the chain', async () => {
    const { gw } = world;
    const { m, heir } = await twoHolders();
    const base = { shareClassId: m.shareClass.id, chainId: '31337', fromInvestorId: m.investor.id, toInvestorId: heir.id, reason: 'court order' };
    const tooMany = await gw.graphql(REQUEST_FORCED_TRANSFER, { input: { ...base, quantity: '800.5' } }, { token: await gw.opsToken() });
    expect(tooMany.body.errors?.[0]).toMatchObject({ message: 'quantity exceeds holdings', extensions: { code: 'BAD_USER_INPUT' } });
    const stranger = await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null });
    const noWallet = await approvedCall(gw, REQUEST_FORCED_TRANSFER, 'requestForcedTransfer', { input: { ...base, toInvestorId: stranger.id, quantity: '1' } });
    expect(noWallet.errors?.[0]?.message).toBe(`toInvestorId: investor ${stranger.id} has no whitelisted wallet on chain 31337`);
    expect(await gw.em().count(ChainTransaction, { purpose: 'forced.transfer' })).toBe(0);
  });
});
