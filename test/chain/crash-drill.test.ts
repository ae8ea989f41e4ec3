import { parseEther, type Hex } from 'viem';
import { DomainEvent } from '../../src/events/event.entity';
import { ANVIL_DEV_KEY, type ChainConfig } from '../../src/config/chains';
import { Pkcs11Pin } from '../../src/config/pkcs11';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { serverUrl } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';
import { aOneStepOrder } from '../support/one-step.factories';
import { chainClients, randomWallet, testChains, TRANSFER, workerChain } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder } from '../support/chain.factories';
import { RpcProxy } from '../support/rpc-proxy';
import { aSoftHsmToken, anHsmAgentKey, hsmSigner, type SoftHsmToken } from '../support/softhsm';

/*
 * Exactly once, whatever crashes: the built gateway as its own process, its chain behind a
 * JSON-RPC proxy that SIGKILLs it at the moment the drill names, then a restart. The embedded
 * database belongs to one process, so this runs against a PostgreSQL server (DATABASE_URL) only.
 */
jest.setTimeout(240_000);
const onServer = serverUrl() ? describe : describe.skip;

/** Who holds the agent key, in the in-process gateway (`over`) and in the child's CHAINS (`entry`, `env`). */
interface DrillSigner {
  over: Partial<ChainConfig>;
  entry: Record<string, unknown>;
  env: Record<string, string>;
  remove(): void;
}

/** The key from a variable, as the process holds it. */
const keyInProcess = async (): Promise<DrillSigner> => ({
  over: {},
  entry: { agentKeyEnv: 'DRILL_AGENT_KEY' },
  env: { DRILL_AGENT_KEY: ANVIL_DEV_KEY },
  remove: () => undefined,
});

/** The key in a SoftHSM token of its own, its address funded on the worker's chain. */
async function keyInSoftHsm(): Promise<DrillSigner> {
  const hsm: SoftHsmToken = aSoftHsmToken('drill');
  const address = anHsmAgentKey(hsm, 'agent');
  await chainClients((await workerChain()).rpcUrl).test.setBalance({ address, value: parseEther('1000') });
  return {
    over: { agentKey: null, pkcs11: { library: hsm.library, tokenLabel: hsm.tokenLabel, keyLabel: 'agent', pin: new Pkcs11Pin(hsm.pin) } },
    entry: { signer: hsmSigner(hsm, 'agent') },
    env: { SOFTHSM2_CONF: hsm.conf },
    remove: () => hsm.remove(),
  };
}

onServer.each([
  ['the key held by the process', keyInProcess],
  ['the key in an HSM (SoftHSM through PKCS#11)', keyInSoftHsm],
])('A gateway SIGKILLed while settling on chain mints exactly once after a restart, signing with %s', (_name, signerOf) => {
  let gw: TestGateway;
  let proxy: RpcProxy;
  let child: ChildGateway | null = null;
  let chain: ReturnType<typeof chainClients>;
  let signer: DrillSigner;
  beforeAll(async () => {
    const { rpcUrl } = await workerChain();
    chain = chainClients(rpcUrl);
    proxy = await RpcProxy.start(rpcUrl);
    signer = await signerOf();
    gw = await startTestGateway({ chains: await testChains({ leaseSeconds: 2, ...signer.over }) });
  });
  afterAll(async () => {
    if (child) await killed(child.child, 'SIGKILL');
    await gw.close();
    await proxy.close();
    signer?.remove();
  });

  const childEnv = () => ({
    DATABASE_URL: gw.db.url!,
    ...signer.env,
    CHAINS: JSON.stringify({ '31337': { rpcUrls: [proxy.url], confirmations: 2, ...signer.entry, replaceAfterMs: 600000, leaseSeconds: 2 } }),
  });

  /** An accepted subscription of 800 tokens to a wallet whitelisted on chain, prepared by an in-process gateway that then stops its sender. */
  async function acceptedOrder() {
    await gw.reset();
    const m = await aChainMarket(gw);
    const address = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, address);
    const order = await aOneStepOrder(gw, m, { amount: '1000', stage: 'accepted', chainId: '31337' });
    return { m, address, order, token: await gw.opsToken() };
  }

  async function drill(kill: 'before the send' | 'after the send, before its answer') {
    const { m, address, order, token } = await acceptedOrder();
    await gw.gateway.close(); // its sender stops and releases the key's lease: the child is the one writer
    proxy.decide = () => 'forward';
    child = await startChildGateway(childEnv());
    const dying = child;
    const sendSeen = new Promise<void>((resolve) => {
      proxy.decide = (method) => {
        if (method !== 'eth_sendRawTransaction') return 'forward';
        resolve();
        return kill === 'before the send' ? 'hang' : 'forward-and-hang';
      };
    });
    const res = await httpRequest(child.port, 'POST', '/graphql', {
      headers: { authorization: `Bearer ${token}` },
      body: { query: `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, variables: { id: order.id } },
    });
    expect(res.body.data.settleOneStepOrder.status).toBe('accepted');
    await sendSeen;
    await killed(dying.child, 'SIGKILL');
    child = null;

    const signed = await gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${order.id}` });
    expect(signed.status).toBe(ChainTxStatus.signed); // stored before the send; its outcome unknown to the dead process
    expect(signed.rawTx).toMatch(/^0x02/);
    const onChainBefore = await chain.pub.getTransaction({ hash: signed.hash as Hex }).catch(() => null);
    if (kill === 'before the send') expect(onChainBefore).toBeNull();
    else expect(onChainBefore?.hash).toBe(signed.hash);

    proxy.decide = () => 'forward';
    child = await startChildGateway(childEnv());
    const done = await finalOrder(gw, order.id, 90_000);
    expect(done.status).toBe('settled');
    const tx = await gw.em().findOneOrFail(ChainTransaction, { correlation: `order:${order.id}` });
    // The same bytes, never signed again.
    expect(tx).toMatchObject({ status: ChainTxStatus.confirmed, hash: signed.hash, hashes: [signed.hash], rawTx: signed.rawTx, nonce: signed.nonce });
    expect(done.transferHash).toBe(signed.hash);
    // Exactly one mint on chain, of exactly the order's tokens.
    const logs = await chain.pub.getLogs({ address: m.token.contractAddress as Hex, event: TRANSFER, args: { to: address }, fromBlock: 0n });
    expect(logs).toHaveLength(1);
    expect(logs[0].args.value).toBe(800n * 10n ** 6n);
    expect(await chain.balanceOf(m.token.contractAddress, address)).toBe(800n * 10n ** 6n);
    // One event.
    const events = (await gw.em().find(DomainEvent, { aggregateId: order.id, type: 'order.transition' })).filter(
      (e) => e.payload.webhookEvent === 'token.transfer_completed',
    );
    expect(events).toHaveLength(1);
    await killed(child.child, 'SIGTERM');
    child = null;
  }

  it('killed between signing and sending: the stored bytes are sent after the restart, one mint, one event', async () => {
    await drill('before the send');
  });

  it('killed between sending and the receipt: the outcome is found by hash after the restart, one mint, one event', async () => {
    // The in-process gateway was closed by the first drill: a fresh one prepares this one.
    await gw.db.close();
    gw = await startTestGateway({ chains: await testChains({ leaseSeconds: 2, ...signer.over }) });
    await drill('after the send, before its answer');
  });
});
