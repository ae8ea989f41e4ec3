import { decodeAbiParameters, encodeAbiParameters, keccak256, parseUnits, type Hex } from 'viem';
import { ChainSetup, ChainTransaction, FINAL_TX_STATUSES } from '../../src/modules/chain/chain-transaction.entity';
import { IDENTITY_ABI, IDENTITY_REGISTRY_ABI, KYC_CLAIM_TOPIC, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { InvestorWallet } from '../../src/modules/investor/investor.entity';
import { eventually, randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, behindTheGateway, onTheWorkerChain, opsCall } from '../support/chain.factories';

/*
 * KYC where the token is (issue 46, point 4): the KYC claim on a wallet's identity carries the
 * investor's KYC expiry; when the gateway's clock passes it, or ops withdraw the KYC, the
 * gateway's claim issuer revokes the claim on chain, so the wallet is no longer verified and a
 * mint to it reverts whoever sends it; a renewal issues a fresh claim and the wallet is verified again.
 */
jest.setTimeout(300_000);

const DAY = 86_400_000;
const SET_KYC = `mutation($input: InvestorKycInput!) { setInvestorKyc(input: $input) { id kycExpiresAt } }`;

describe('The KYC claim on chain follows the investor’s KYC', () => {
  const world = onTheWorkerChain();
  const agent = () => world.gw.gateway.services.chain!.writable('31337').account!;
  const claims = () => world.gw.gateway.services.walletOnChain!.kycClaims;

  async function setKyc(investorId: string, verifiedAt: number, expiresAt: number) {
    const res = await opsCall(world.gw, SET_KYC, { input: { investorId, verifiedAt, expiresAt } });
    expect(res.errors).toBeUndefined();
  }
  const verified = (registry: string, wallet: string) => world.chain.read<boolean>(registry, IDENTITY_REGISTRY_ABI, 'isVerified', [wallet]);
  /** The expiry (seconds) and issue number the gateway's claim on the identity carries. */
  async function claimOn(identity: string): Promise<{ expiresAt: bigint; issue: bigint }> {
    const setup = await world.gw.em().findOneOrFail(ChainSetup, { chainId: '31337' });
    const claimId = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [setup.claimIssuer, KYC_CLAIM_TOPIC]));
    const [, , , , data] = await world.chain.read<[bigint, bigint, Hex, Hex, Hex, string]>(identity, IDENTITY_ABI, 'getClaim', [claimId]);
    const [expiresAt, issue] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], data);
    return { expiresAt, issue };
  }
  /** Every intent at its depth: the next test's reset truncates nothing the sender is still writing. */
  const allFinal = () =>
    eventually('every intent final', async () => (await world.gw.em().count(ChainTransaction, { status: { $nin: [...FINAL_TX_STATUSES] } })) === 0);
  const revocations = () => world.gw.em().count(ChainTransaction, { purpose: 'wallet.kycRevoke' });
  async function mintReverts(token: string, to: string) {
    const call = world.chain.pub.simulateContract({
      account: agent(),
      address: token as Hex,
      abi: TOKEN_ABI,
      functionName: 'mint',
      args: [to as Hex, 1_000_000n],
    });
    await expect(call).rejects.toThrow(/Identity is not verified/);
  }

  it('expired: revoked once, not verified, a direct mint reverts and placement is refused; renewed: a fresh claim, verified again', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const now = gw.clock.now().getTime();
    const expiresAt = now + DAY;
    await setKyc(m.investor.id, now - 300 * DAY, expiresAt);
    const wallet = randomWallet();
    const whitelisted = await aWhitelistedWallet(gw, m.investor.id, wallet);
    const registry = m.token.identityRegistry;
    expect(await verified(registry, wallet)).toBe(true);
    expect(await claimOn(whitelisted.onchainIdentity!)).toEqual({ expiresAt: BigInt(Math.floor(expiresAt / 1000)), issue: 1n });

    // Before the expiry the job finds nothing; past it, two passes at once revoke the claim once.
    expect(await claims().revokeExpired(gw.db.orm)).toBe(0);
    gw.clock.advance(2 * DAY);
    await Promise.all([claims().revokeExpired(gw.db.orm), claims().revokeExpired(gw.db.orm)]);
    expect(await claims().revokeExpired(gw.db.orm)).toBe(0);
    expect(await revocations()).toBe(1);
    await eventually('the claim revoked on chain', async () => !(await verified(registry, wallet)));
    const revoked = await gw.em().findOneOrFail(InvestorWallet, { id: whitelisted.id });
    expect(revoked.kycClaimRevokedAt).not.toBeNull();
    expect(revoked.chainError ?? null).toBeNull();

    await mintReverts(m.token.contractAddress, wallet);
    const placed = await gw.api('POST', '/orders/subscribe', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 10 },
    });
    const expiredOn = new Date(expiresAt).toISOString().slice(0, 10);
    expect(placed.body.errorMsg).toBe(`investor ${m.investor.id} is not eligible for ${m.shareClass.id}: KYC expired on ${expiredOn}`);

    // Renewed by ops: a fresh claim (another issue, the new expiry), verified again.
    const renewedUntil = gw.clock.now().getTime() + 365 * DAY;
    await setKyc(m.investor.id, gw.clock.now().getTime() - DAY, renewedUntil);
    await eventually('the fresh claim on chain', () => verified(registry, wallet));
    expect(await claimOn(whitelisted.onchainIdentity!)).toEqual({ expiresAt: BigInt(Math.floor(renewedUntil / 1000)), issue: 2n });
    await behindTheGateway(gw, world.rpcUrl, m.token.contractAddress, TOKEN_ABI, 'mint', [wallet, parseUnits('1', 6)]);
    expect(await world.chain.balanceOf(m.token.contractAddress, wallet)).toBe(parseUnits('1', 6));
    expect(await revocations()).toBe(1);
    await allFinal();
  });

  it('withdrawn by ops (an expiry now): the claim is revoked at once, and setting the same KYC again revokes nothing more', async () => {
    const { gw } = world;
    const m = await aChainMarket(gw);
    const wallet = randomWallet();
    await aWhitelistedWallet(gw, m.investor.id, wallet);
    expect(await verified(m.token.identityRegistry, wallet)).toBe(true);

    const now = gw.clock.now().getTime();
    await setKyc(m.investor.id, now - 300 * DAY, now);
    await setKyc(m.investor.id, now - 300 * DAY, now);
    expect(await claims().revokeExpired(gw.db.orm)).toBe(0);
    expect(await revocations()).toBe(1);
    await eventually('the claim revoked on chain', async () => !(await verified(m.token.identityRegistry, wallet)));
    await mintReverts(m.token.contractAddress, wallet);
    await allFinal();
  });
});
