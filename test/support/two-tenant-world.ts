import { alias } from './ids';
import { aTokenPair, aCredential } from './auth.factories';
import { aGrant, aHolding, aMarket, aNav, anInvestor, aShareClass } from './factories';
import type { TestGateway } from './gateway';
import { aOneStepOrder } from './one-step.factories';
import { asOps } from './ops.factories';
import { aTwoStepOrder } from './order.factories';

/**
 * Two distributors on one gateway, A with a book (investors, orders of both flows, a webhook, a
 * credential, a share class of its own) and B with nothing: the world of the trust-boundary walk
 * (test/security/isolation.test.ts).
 */
export interface World {
  /**
   * Values of A's book that must never reach B: what the gateway generated or ops provisioned
   * (ids in both forms, hostnames, wallets, keys). Free text such as an e-mail is not among them:
   * B may register its own investor with the same text, and is then rightly answered with it.
   */
  secrets: string[];
  /** What an argument or body field of this name is, in A's book (`PT`/`US` forms on the alias pass). */
  values(aliasForm: boolean): Record<string, unknown>;
  /** The id an `id` argument names, by the type the field returns. */
  idFor(typeName: string, aliasForm: boolean): string | undefined;
  bHost: string;
  /** A's hostname: B may type it into X-Forwarded-Host, which must change nothing. */
  aHost: string;
  bToken: string;
  ordersOfA: string[];
}

export async function aTwoTenantWorld(gw: TestGateway): Promise<World> {
  const em = gw.em();
  const now = gw.clock.now();
  const { shareClass: shared, distributor: a, investor, other: b, hostA, hostB } = await aMarket(em, now);
  // A share class of A's alone: B must not even learn it exists.
  const own = await aShareClass(em, { meta: { name: 'A only', manager: 'M' } });
  await aGrant(em, a, own);
  await aNav(em, own, '2.5', new Date(now.getTime() - 60_000));
  const second = await anInvestor(em, a, { grants: [shared, own], over: { externalInvestorId: 'crm-a-secret', email: 'alice.secret@a.example' } });
  await aHolding(em, investor, shared, '100');
  const twoStep = await aTwoStepOrder(gw, { distributor: a, investor, shareClass: shared, hostA }, { externalRef: 'a-secret-ref' });
  const oneStep = await aOneStepOrder(gw, { distributor: a, investor, shareClass: shared });
  const { apiKey } = await aCredential(gw, a);
  const token = await gw.opsToken();
  const hook = await asOps(
    gw,
    `mutation { registerWebhook(input: {distributorId: "${a.id}", event_type: "order.accepted", endpoint_url: "https://hooks.a-secret.example/in"}) { webhook { id } } }`,
    undefined,
    { authorization: `Bearer ${token}` },
  );
  const webhookId: string = hook.registerWebhook.webhook.id;
  const wallet = `0x${investor.id.toLowerCase().padStart(40, 'e')}`;
  const bToken = (await aTokenPair(gw, b)).accessToken;

  const secrets = [
    a.id,
    alias(a.id, 'PT'),
    investor.id,
    alias(investor.id, 'US'),
    second.id,
    alias(second.id, 'US'),
    own.id,
    hostA,
    wallet,
    twoStep.orderId,
    oneStep.id,
    webhookId,
    apiKey,
  ];
  const ids = (aliasForm: boolean) => ({
    distributor: aliasForm ? alias(a.id, 'PT') : a.id,
    investor: aliasForm ? alias(investor.id, 'US') : investor.id,
  });
  return {
    secrets,
    bHost: hostB,
    aHost: hostA,
    bToken,
    ordersOfA: [twoStep.orderId, oneStep.id],
    values: (aliasForm) => ({
      distributorId: ids(aliasForm).distributor,
      partnerId: alias(a.id, 'PT'),
      investorId: ids(aliasForm).investor,
      userId: alias(investor.id, 'US'),
      shareClassId: own.id,
      orderId: twoStep.orderId,
      webhookId,
      webhook_id: webhookId,
      endpoint_url: 'https://hooks.a-secret.example/in',
      apiKey,
      hostname: hostA,
      email: 'alice.secret@a.example',
      externalInvestorId: 'crm-a-secret',
      externalRef: 'a-secret-ref',
      address: wallet,
      walletAddress: wallet,
      chainId: '11155111',
      event_type: 'order.accepted',
      amountSubscription: 100,
      amount: '100',
      tokenCount: '1',
      close: '1.5',
      transferHash: `0x${'cd'.repeat(32)}`,
    }),
    idFor: (typeName, aliasForm) =>
      ({
        Order: twoStep.orderId,
        Investor: ids(aliasForm).investor,
        Distributor: ids(aliasForm).distributor,
        ShareClass: own.id,
        Webhook: webhookId,
      })[typeName],
  };
}
