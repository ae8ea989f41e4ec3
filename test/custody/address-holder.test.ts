import { randomBytes } from 'node:crypto';
import { InvestorWallet } from '../../src/modules/investor/investor.entity';
import { DistributorWallet } from '../../src/modules/distributor/distributor.entity';
import { SHARED_ADDRESSES_CHECK } from '../../src/persistence/migrations/Migration20261129200000';
import { aDistributor, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import type { Distributor } from '../../src/modules/distributor/distributor.entity';
import type { Investor } from '../../src/modules/investor/investor.entity';

/*
 * One address, one holder, in the database (docs/custody.md#one-address-one-holder): whichever
 * writer gives an address to a holder, and however many at once, an address another holder's
 * wallet has or had is refused with 409 `address is a wallet of another holder`.
 */
jest.setTimeout(180_000);

const TAKEN = 'address is a wallet of another holder';
const ADD = `mutation($i: AddInvestorWalletInput!) { addInvestorWallet(input: $i) { address status } }`;
const REMOVE = `mutation($i: RemoveInvestorWalletInput!) { removeInvestorWallet(input: $i) { status } }`;
const SET_DISTRIBUTOR_WALLET = `mutation($i: SetDistributorWalletInput!) { setDistributorWallet(input: $i) { address } }`;

const anAddress = () => `0x${randomBytes(20).toString('hex')}`;
/** The refusal as GraphQL answers it: no data, one error, its code and message. */
const refusal = (res: { body: { data?: unknown; errors?: any[] } }) => res.body.errors?.map((e) => ({ code: e.extensions?.code, message: e.message }));

describe('One address, one holder', () => {
  let gw: TestGateway;
  let ops: string;
  let a: Distributor;
  let b: Distributor;
  let a1: Investor;
  let b1: Investor;

  beforeAll(async () => {
    gw = await startTestGateway({ poolMax: 8 });
  });
  afterAll(() => gw?.close());
  beforeEach(async () => {
    await gw.reset();
    ops = await gw.opsToken();
    const em = gw.em();
    // given investor A1 of distributor A and investor B1 of distributor B, another tenant
    a = await aDistributor(em, [], { name: 'Distributor A' });
    b = await aDistributor(em, [], { name: 'Distributor B' });
    a1 = await anInvestor(em, a, { walletChain: null });
    b1 = await anInvestor(em, b, { walletChain: null });
  });

  const add = (investorId: string, chainId: string, address: string) =>
    gw.graphql(ADD, { i: { investorId, chainId, address, whitelisted: true } }, { token: ops });

  it('two concurrent adds of one address for investors of two distributors: exactly one wins, the other gets 409, and the winner can be frozen', async () => {
    for (let round = 0; round < 25; round++) {
      // a chain of its own per round: each investor may have one wallet in use per chain
      const chainId = String(1000 + round);
      const address = anAddress();
      // when both are added at once, the second in upper case
      const answers = await Promise.all([add(a1.id, chainId, address), add(b1.id, chainId, `0x${address.slice(2).toUpperCase()}`)]);
      // then one is added and the other refused as the rule says
      const won = answers.filter((r) => !r.body.errors && r.body.data);
      const lost = answers.filter((r) => r.body.errors);
      expect({ round, won: won.length, lost: lost.map(refusal) }).toEqual({ round, won: 1, lost: [[{ code: 'CONFLICT', message: TAKEN }]] });
      const rows = await gw.em().getConnection().execute(`select investor_id from investor_wallet where lower(address) = ?`, [address]);
      expect(rows).toHaveLength(1);
      // and the winner's wallet, its holder's alone, can be frozen
      const winner = answers[0].body.errors ? b1 : a1;
      const frozen = await gw.graphql(REMOVE, { i: { investorId: winner.id, chainId, reason: 'compromised' } }, { token: ops });
      expect(frozen.body).toEqual({ data: { removeInvestorWallet: { status: 'removed' } } });
    }
  });

  it("setDistributorWallet refuses another tenant's investor's wallet, named in upper case", async () => {
    const address = anAddress();
    expect((await add(b1.id, '1', address)).body.errors).toBeUndefined();
    const res = await gw.graphql(
      SET_DISTRIBUTOR_WALLET,
      { i: { distributorId: a.id, chainId: '1', address: `0x${address.slice(2).toUpperCase()}` } },
      { token: ops },
    );
    expect(refusal(res)).toEqual([{ code: 'CONFLICT', message: TAKEN }]);
    expect(await gw.em().count(DistributorWallet, { distributor: a.id, chainId: '1' })).toBe(0);
    // and another chain changes nothing: one key holds the address everywhere
    const other = await gw.graphql(SET_DISTRIBUTOR_WALLET, { i: { distributorId: a.id, chainId: '8453', address } }, { token: ops });
    expect(refusal(other)).toEqual([{ code: 'CONFLICT', message: TAKEN }]);
  });

  it("an address of a removed wallet, or a distributor's former wallet, cannot be taken by another holder; its holder may use it again", async () => {
    const removed = anAddress();
    expect((await add(a1.id, '1', removed)).body.errors).toBeUndefined();
    expect((await gw.graphql(REMOVE, { i: { investorId: a1.id, chainId: '1', reason: 'compromised' } }, { token: ops })).body.errors).toBeUndefined();
    const former = anAddress();
    for (const address of [former, anAddress()]) {
      const set = await gw.graphql(SET_DISTRIBUTOR_WALLET, { i: { distributorId: b.id, chainId: '1', address } }, { token: ops });
      expect(set.body.errors).toBeUndefined();
    }
    // when another holder names either
    expect(refusal(await add(b1.id, '1', removed))).toEqual([{ code: 'CONFLICT', message: TAKEN }]);
    expect(refusal(await add(a1.id, '1', former))).toEqual([{ code: 'CONFLICT', message: TAKEN }]);
    const setRemoved = await gw.graphql(SET_DISTRIBUTOR_WALLET, { i: { distributorId: b.id, chainId: '1', address: removed } }, { token: ops });
    expect(refusal(setRemoved)).toEqual([{ code: 'CONFLICT', message: TAKEN }]);
    // then the holders may use their own again
    expect((await add(a1.id, '1', removed)).body.errors).toBeUndefined();
    const back = await gw.graphql(SET_DISTRIBUTOR_WALLET, { i: { distributorId: b.id, chainId: '1', address: former } }, { token: ops });
    expect(back.body).toEqual({ data: { setDistributorWallet: { address: former } } });
  });

  it('no writer gets around it: plain SQL writing another holder’s address fails on the claim, and claims are never changed nor deleted', async () => {
    const address = anAddress();
    expect((await add(a1.id, '1', address)).body.errors).toBeUndefined();
    const sql = gw.em().getConnection();
    await expect(
      sql.execute(
        `insert into investor_wallet (created_at, updated_at, created_by, updated_by, investor_id, chain_id, address, status) values (now(), now(), 'sql', 'sql', ?, '1', ?, 'pending')`,
        [b1.id, address.toUpperCase().replace('0X', '0x')],
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'address_claim_pkey' });
    await expect(
      sql.execute(
        `insert into distributor_wallet (created_at, updated_at, created_by, updated_by, distributor_id, chain_id, address) values (now(), now(), 'sql', 'sql', ?, '5', ?)`,
        [a.id, address],
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'address_claim_pkey' });
    // an update that moves a wallet to another holder's address is refused the same way
    const [mine] = await sql.execute<{ id: string }[]>(`select id from investor_wallet where investor_id = ?`, [a1.id]);
    expect((await add(b1.id, '1', anAddress())).body.errors).toBeUndefined();
    await expect(sql.execute(`update investor_wallet set address = ? where investor_id = ?`, [address, b1.id])).rejects.toMatchObject({
      code: '23505',
      constraint: 'address_claim_pkey',
    });
    await expect(sql.execute(`delete from address_claim where address = ?`, [address])).rejects.toThrow(/address_claim rows are kept/);
    await expect(sql.execute(`update address_claim set holder_id = ? where address = ?`, [b1.id, address])).rejects.toThrow(/address_claim rows are kept/);
    expect(await gw.em().count(InvestorWallet, { id: mine.id })).toBe(1);
  });

  it('the migration fails naming every address already held by two holders, and each row holding it', async () => {
    // given rows an older gateway could have left (written with the claim's triggers off, in a transaction rolled back after)
    const address = anAddress();
    const conn = gw.em().getConnection();
    const message = await conn
      .transactional(async (trx) => {
        const run = (q: string, params: unknown[] = []) => conn.execute(q, params, 'all', trx);
        await run(`alter table investor_wallet disable trigger investor_wallet_address_claim`);
        await run(`alter table distributor_wallet disable trigger distributor_wallet_address_claim`);
        for (const investor of [a1, b1])
          await run(
            `insert into investor_wallet (created_at, updated_at, created_by, updated_by, investor_id, chain_id, address, status) values (now(), now(), 'old', 'old', ?, '1', ?, 'removed')`,
            [investor.id, investor === a1 ? address : address.toUpperCase().replace('0X', '0x')],
          );
        await run(
          `insert into distributor_wallet (created_at, updated_at, created_by, updated_by, distributor_id, chain_id, address) values (now(), now(), 'old', 'old', ?, '1', ?)`,
          [b.id, address],
        );
        const failure = await run(SHARED_ADDRESSES_CHECK).then(
          () => null,
          (err: Error) => err.message,
        );
        throw Object.assign(new Error('rolled back'), { failure });
      })
      .catch((err: { failure?: string | null }) => err.failure);
    // then the check names the address and its three holders' rows
    expect(message).toMatch(/one address, one holder: these addresses are wallets of more than one holder/);
    expect(message).toContain(`${address}: distributor ${b.id} (distributor_wallet `);
    expect(message).toContain(`investor ${a1.id} (investor_wallet `);
    expect(message).toContain(`investor ${b1.id} (investor_wallet `);
    // and with the rows the gateway writes, it passes
    await expect(conn.execute(SHARED_ADDRESSES_CHECK)).resolves.toBeDefined();
  });
});
