import { parseUnits, zeroAddress, type Hex } from 'viem';
import { runInScope } from '../../src/common/request-scope';
import { IDENTITY_REGISTRY_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { aNav, anInvestor } from './factories';
import { hex, randomWallet, TRANSFER, type ChainClients } from './chain';
import { aWhitelistedWallet, behindTheGateway, opsCall, type aChainMarket } from './chain.factories';
import type { TestGateway } from './gateway';

type Market = Awaited<ReturnType<typeof aChainMarket>>;

/** October 2026 closed long ago; paid on 2 November at a NAV of 2, as `amountPerToken` on the record date 31 October. */
export const RECORD_DATE = '2026-10-31';
export const PAY_DATE = '2026-11-02';
export const PAY_NAV = '2';

/** The operator that declares distributions in the suites; `test-ops` pays them. */
export const DECLARER = 'test-declarer';

/** A call as the declarer (`test-declarer`, operator): its body. */
export async function asDeclarer(gw: TestGateway, query: string, variables: Record<string, unknown>) {
  return (await gw.graphql(query, variables, { token: await gw.opsTokenAs(DECLARER, ['operator']) })).body;
}

export const PAY = `mutation($id: ID!) { payDistribution(id: $id) { id status tokens paid residue } }`;
export const RETRY = `mutation($id: ID!) { retryDistributionPayments(id: $id) { id status tokens paid residue } }`;

/**
 * `n` investors of the market's distributor, each with a wallet whitelisted on chain 31337. The
 * market's investor is whitelisted through the gateway (its ONCHAINID identity and KYC claim);
 * whitelisting each of the others so would take seconds apiece, so their wallets are registered
 * in bulk behind the gateway (`batchRegisterIdentity`) on that same verified identity, and
 * recorded as whitelisted. Investor id → wallet.
 */
export async function manyWhitelistedHolders(gw: TestGateway, rpcUrl: string, m: Market, n: number): Promise<Map<string, Hex>> {
  const first = await aWhitelistedWallet(gw, m.investor.id, randomWallet());
  const wallets = new Map([[m.investor.id, hex(first.address.toLowerCase())]]);
  const em = gw.em();
  await runInScope({ actor: 'factory' }, async () => {
    for (let i = 1; i < n; i++) {
      const investor = await anInvestor(em, m.distributor, { grants: [m.shareClass], walletChain: null });
      const address = randomWallet();
      em.create(InvestorWallet, {
        investor,
        chainId: '31337',
        address,
        status: WalletStatus.whitelisted,
        whitelistedAt: new Date(),
        onchainIdentity: first.onchainIdentity,
      });
      wallets.set(investor.id, address);
    }
    await em.flush();
  });
  await registerSharingIdentity(gw, rpcUrl, m, [...wallets.values()].slice(1), hex(first.onchainIdentity));
  return wallets;
}

/**
 * Wallets registered on the token's identity registry behind the gateway (`batchRegisterIdentity`
 * from the agent key), each on one verified `identity`: T-REX's storage keys identities by wallet
 * and never asks one to be unique, and `isVerified` reads the claims of the identity a wallet
 * points to. `perTx` rows a transaction (a registration costs ~50k gas).
 */
export async function registerSharingIdentity(gw: TestGateway, rpcUrl: string, m: Market, addresses: Hex[], identity: Hex, perTx = 50): Promise<void> {
  for (let i = 0; i < addresses.length; i += perTx) {
    const part = addresses.slice(i, i + perTx);
    await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'batchRegisterIdentity', [
      part,
      part.map(() => identity),
      // Luxembourg (ISO 3166-1 numeric 442), as the factories' investors: a country rule on the token reads it.
      part.map(() => 442),
    ]);
  }
}

/**
 * Each investor holds `quantity` tokens since 1 October, in the register and on chain at their
 * wallet (minted by the issuer's agent behind the gateway: recorded, not followed).
 */
export async function holdersSinceOctober(gw: TestGateway, rpcUrl: string, m: Market, wallets: Map<string, Hex>, quantity: string): Promise<void> {
  const at = new Date('2026-10-01T10:00:00Z');
  for (const investorId of wallets.keys())
    await gw
      .em()
      .fork()
      .transactional((em) => bookOpening(em, { investorId, shareClassId: m.shareClass.id, quantity, settledAt: at, at }));
  const addresses = [...wallets.values()];
  // batchMint costs ~106k gas a row: 100 rows a call stay under anvil's block.
  for (let i = 0; i < addresses.length; i += 100) {
    const part = addresses.slice(i, i + 100);
    await behindTheGateway(gw, rpcUrl, m.token.contractAddress, TOKEN_ABI, 'batchMint', [part, part.map(() => parseUnits(quantity, m.token.decimals))]);
  }
}

/**
 * The class pays its income as reinvestment; the pay date's NAV is published; a distribution of
 * `amountPerToken` on the record date is declared, by a second operator (`test-declarer`), so that
 * `test-ops` paying it is the second party reinvestment needs (src/access/duties.ts). Its id.
 */
export async function aDeclaredReinvestment(gw: TestGateway, m: Market, amountPerToken: string): Promise<string> {
  const policy = await opsCall(
    gw,
    `mutation($sc: ID!) { setDistributionPolicy(shareClassId: $sc, treatment: distributing, payment: reinvest) { treatment } }`,
    {
      sc: m.shareClass.id,
    },
  );
  if (policy.errors) throw new Error(JSON.stringify(policy.errors));
  await aNav(gw.em(), m.shareClass, PAY_NAV, new Date(`${PAY_DATE}T10:00:00Z`));
  const declared = await asDeclarer(gw, `mutation($i: DeclareDistributionInput!) { declareDistribution(input: $i) { id } }`, {
    i: { shareClassId: m.shareClass.id, recordDate: RECORD_DATE, payDate: PAY_DATE, amountPerToken },
  });
  if (declared.errors) throw new Error(JSON.stringify(declared.errors));
  return declared.data.declareDistribution.id;
}

/** The mints (Transfer from 0x0) of the token to each wallet from `fromBlock` on: how many, and how much in all. */
export async function mintsSince(chain: ChainClients, token: string, fromBlock: bigint): Promise<Map<string, { count: number; value: bigint }>> {
  const logs = await chain.pub.getLogs({ address: token as Hex, event: TRANSFER, args: { from: zeroAddress }, fromBlock });
  const per = new Map<string, { count: number; value: bigint }>();
  for (const l of logs) {
    const to = l.args.to!.toLowerCase();
    const seen = per.get(to) ?? { count: 0, value: 0n };
    per.set(to, { count: seen.count + 1, value: seen.value + l.args.value! });
  }
  return per;
}
