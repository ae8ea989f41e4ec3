import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { isAddressEqual, keccak256, parseEther, parseTransaction, recoverTransactionAddress, verifyMessage, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import * as graphene from 'graphene-pk11';
import { ConfigError, loadConfig, type Config } from '../../src/config';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { Chains } from '../../src/modules/chain/chains';
import { AGENT_ROLE_ABI, TOKEN_ABI } from '../../src/modules/chain/contracts';
import { SECP256K1_N } from '../../src/modules/chain/signer/ecdsa';
import { Pkcs11Pin } from '../../src/config/pkcs11';
import { Pkcs11Signer } from '../../src/modules/chain/signer/pkcs11-signer';
import { Pkcs11Token } from '../../src/modules/chain/signer/pkcs11-token';
import { Holding } from '../../src/modules/holding/holding.entity';
import { Order } from '../../src/modules/order/order.entity';
import { chainClients, eventually, randomWallet, workerChain, type ChainClients } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, opsCall } from '../support/chain.factories';
import { aDealingDateNav, anInvestor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { aSoftHsmToken, anHsmAgentKey, hsmSigner, type SoftHsmToken } from '../support/softhsm';

/*
 * The agent key in an HSM: Debian's SoftHSM through PKCS#11, a token of its own per test file,
 * the key created in it by `npm run hsm-key` (the built script), the gateway on the worker's
 * anvil with the T-REX contracts it deploys itself, signing every transaction in the token.
 */
jest.setTimeout(300_000);

const CHAIN = '31337';
const KEY_LABEL = 'agent-31337';
const SETTLE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId reason } transactions { id purpose status } } }`;

/** CHAINS as an operator writes it for a key in the HSM. */
const chainsEnv = (hsm: SoftHsmToken, rpcUrl: string, signer: Record<string, unknown> = {}) => ({
  APP_ENV: 'test',
  CHAINS: JSON.stringify({
    [CHAIN]: { rpcUrls: [rpcUrl], confirmations: 2, replaceAfterMs: 5000, leaseSeconds: 5, signer: { ...hsmSigner(hsm, KEY_LABEL), ...signer } },
  }),
});

describe('The agent key in an HSM (SoftHSM through PKCS#11)', () => {
  let hsm: SoftHsmToken;
  let agent: Address;
  let config: Config;
  let gw: TestGateway;
  let chain: ChainClients;
  let rpcUrl: string;

  beforeAll(async () => {
    hsm = aSoftHsmToken();
    agent = anHsmAgentKey(hsm, KEY_LABEL);
    rpcUrl = (await workerChain()).rpcUrl;
    chain = chainClients(rpcUrl);
    // The key's address pays for gas like any agent's.
    await chain.test.setBalance({ address: agent, value: parseEther('1000') });
    config = loadConfig(chainsEnv(hsm, rpcUrl));
    gw = await startTestGateway({ chains: config.chains! });
  });
  afterAll(async () => {
    await gw?.close();
    hsm?.remove();
  });

  it("the gateway signs with the key in the token: it deploys a token, whitelists a wallet, and settles a dealing date; every transaction recovers to the HSM key's address, with low s", async () => {
    expect(gw.gateway.services.chain!.writable(CHAIN).account!.address).toBe(agent);

    // Deploy: the T-REX suite and the token, the HSM key its agent.
    const m = await aChainMarket(gw);
    expect(await chain.read<boolean>(m.token.contractAddress, AGENT_ROLE_ABI, 'isAgent', [agent])).toBe(true);
    expect(await chain.read<boolean>(m.token.identityRegistry, AGENT_ROLE_ABI, 'isAgent', [agent])).toBe(true);

    // Whitelist: identity, KYC claim (a message signed in the HSM) and registration, for three investors.
    const investors = [
      m.investor,
      await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null }),
      await anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null }),
    ];
    const wallets = new Map<string, string>();
    for (const investor of investors) {
      const address = randomWallet();
      await aWhitelistedWallet(gw, investor.id, address);
      wallets.set(investor.id, address);
    }

    // Mint: a dealing date of one order each, settled at the date's NAV of 2.
    const orders: Awaited<ReturnType<typeof aOneStepOrder>>[] = [];
    for (const investor of investors) orders.push(await aOneStepOrder(gw, { ...m, investor }, { amount: '100', stage: 'accepted', chainId: CHAIN }));
    const dealingDate = orders[0].dealingDate!;
    await aDealingDateNav(gw.em(), m.shareClass, '2', dealingDate);
    const run = await opsCall(gw, SETTLE, { sc: m.shareClass.id, d: dealingDate });
    expect(run.errors).toBeUndefined();
    expect(run.data!.settleDealingDate.failed).toEqual([]);
    expect(run.data!.settleDealingDate.transactions.map((t: any) => t.purpose)).toEqual(['settlement.batchMint']);
    await eventually(
      'every order of the date settled',
      async () => (await gw.em().count(Order, { id: { $in: orders.map((o) => o.id) }, status: 'settled' })) === orders.length,
    );
    for (const investor of investors) {
      expect((await gw.em().findOneOrFail(Holding, { investor: investor.id, shareClass: m.shareClass.id })).balance).toMatch(/^50(\.0+)?$/);
      expect(await chain.balanceOf(m.token.contractAddress, wallets.get(investor.id)!)).toBe(50_000_000n);
    }
    expect(await chain.read<bigint>(m.token.contractAddress, TOKEN_ABI, 'totalSupply')).toBe(150_000_000n);

    // Every intent: signed in the HSM once, its stored bytes hash to its hash, recover to the agent, low s.
    const intents = await gw.em().find(ChainTransaction, {}, { orderBy: { id: 'asc' } });
    expect(intents.length).toBeGreaterThanOrEqual(1 + investors.length * 3 + 1);
    for (const intent of intents) {
      expect(intent).toMatchObject({ status: ChainTxStatus.confirmed, fromAddress: agent.toLowerCase() });
      expect(keccak256(intent.rawTx as Hex)).toBe(intent.hash);
      expect(await recoverTransactionAddress({ serializedTransaction: intent.rawTx as `0x02${string}` })).toBe(agent);
      expect(BigInt(parseTransaction(intent.rawTx as Hex).s!) <= SECP256K1_N / 2n).toBe(true);
    }
  });

  it("the process never holds the key: the private key is sensitive and never extractable, reading its value is refused, and no 32-byte key of the agent's address is in the configuration or the environment", async () => {
    const token = Pkcs11Token.open({ library: hsm.library, tokenLabel: hsm.tokenLabel, pin: new Pkcs11Pin(hsm.pin) });
    try {
      const pair = token.findKeyPair(KEY_LABEL)!;
      expect(pair.address).toBe(agent);
      expect(pair.privateKey.getAttribute({ sensitive: null, extractable: null, alwaysSensitive: null, neverExtractable: null, private: null })).toEqual({
        sensitive: true,
        extractable: false,
        alwaysSensitive: true,
        neverExtractable: true,
        private: true,
      });
      expect(() => pair.privateKey.getAttribute({ value: null })).toThrow('CKR_ATTRIBUTE_SENSITIVE');
      // Nor can it be wrapped out under a key of the caller's.
      const wrapping = token.session.generateKey(graphene.KeyGenMechanism.AES, {
        keyType: graphene.KeyType.AES,
        valueLen: 32,
        token: false,
        wrap: true,
        encrypt: true,
      });
      expect(() => token.session.wrapKey(graphene.MechanismEnum.AES_KEY_WRAP_PAD, wrapping, pair.privateKey)).toThrow(
        /CKR_KEY_UNEXTRACTABLE|CKR_KEY_NOT_WRAPPABLE/,
      );
    } finally {
      token.close();
    }
    expect(config.chains![CHAIN].agentKey).toBeNull();
    expect(gw.gateway.services.chain!.writable(CHAIN).signer).toBeInstanceOf(Pkcs11Signer);
    // Every 32-byte hex string the process was given: none is the agent's key.
    const given = `${JSON.stringify(process.env)} ${inspect(config, { depth: 20 })} ${JSON.stringify(config)}`;
    const candidates = [...new Set(given.match(/(?<![0-9a-fA-F])(0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/g) ?? [])];
    for (const c of candidates) expect(isAddressEqual(privateKeyToAddress((c.startsWith('0x') ? c : `0x${c}`) as Hex), agent)).toBe(false);
    // The PIN is read from its file and shows nowhere.
    expect(inspect(config, { depth: 20 })).not.toContain(hsm.pin);
    expect(JSON.stringify(config)).not.toContain(hsm.pin);
    expect(config.chains![CHAIN].pkcs11!.pin.reveal()).toBe(hsm.pin);
  });

  it('a session the HSM ended (a restart, a dropped connection) is opened again and the next signature is made', async () => {
    const token = Pkcs11Token.open({ library: hsm.library, tokenLabel: hsm.tokenLabel, pin: new Pkcs11Pin(hsm.pin) });
    // C_CloseAllSessions: every session of this process on the token ends, the gateway's too, and the login with them.
    token.slot.closeAll();
    token.close();
    const account = gw.gateway.services.chain!.writable(CHAIN).account!;
    const message = { raw: keccak256('0x5e55') } as const;
    expect(await verifyMessage({ address: agent, message, signature: await account.signMessage({ message }) })).toBe(true);
  });
});

describe('CHAINS naming a PKCS#11 signer: every mistake named, the PIN never', () => {
  let hsm: SoftHsmToken;
  beforeAll(() => {
    hsm = aSoftHsmToken('mistakes');
    anHsmAgentKey(hsm, KEY_LABEL);
    // A key that could leave the HSM, made behind the script's back.
    const token = Pkcs11Token.open({ library: hsm.library, tokenLabel: hsm.tokenLabel, pin: new Pkcs11Pin(hsm.pin) });
    try {
      token.session.generateKeyPair(
        graphene.KeyGenMechanism.EC,
        { keyType: graphene.KeyType.EC, token: true, verify: true, label: 'leaky', paramsEC: Buffer.from('06052b8104000a', 'hex') },
        { keyType: graphene.KeyType.EC, token: true, private: true, sensitive: false, extractable: true, sign: true, label: 'leaky' },
      );
    } finally {
      token.close();
    }
  });
  afterAll(() => hsm?.remove());

  const rpc = 'http://127.0.0.1:9';
  it.each([
    [{ pin: '1234' }, 'CHAINS.31337.signer.pin is refused: name a variable (pinEnv) or a file (pinFile) holding the PIN'],
    [{ kind: 'yubikey' }, 'CHAINS.31337.signer.kind must be "pkcs11" (a key held by the process is named by agentKeyEnv or agentKeyFile)'],
    [{ pinFile: undefined }, "CHAINS.31337.signer must name the token's PIN: pinEnv (a variable) or pinFile (a file)"],
    [{ pinFile: undefined, pinEnv: 'NO_SUCH_PIN' }, 'CHAINS.31337.signer.pinEnv names NO_SUCH_PIN, which is not set'],
    [{ pinEnv: 'HSM_PIN' }, 'CHAINS.31337.signer must name pinEnv or pinFile, not both'],
    [{ pinFile: '/nonexistent/pin' }, 'CHAINS.31337.signer.pinFile cannot be read: "/nonexistent/pin"'],
    [{ library: 'libsofthsm2.so' }, "CHAINS.31337.signer.library must be the absolute path of the HSM's PKCS#11 library"],
    [{ library: '/nonexistent/libpkcs11.so' }, 'CHAINS.31337.signer.library does not exist: "/nonexistent/libpkcs11.so"'],
    [{ tokenLabel: '' }, 'CHAINS.31337.signer.tokenLabel must be a non-empty label of at most 32 bytes'],
    [{ keyLabel: 7 }, 'CHAINS.31337.signer.keyLabel must be a non-empty label'],
    [{ slot: 0 }, 'CHAINS.31337.signer.slot is not a field of a PKCS#11 signer (kind, library, tokenLabel, keyLabel, pinEnv, pinFile)'],
  ])('in CHAINS %#: %s', (signer, message) => {
    const env = { ...chainsEnv(hsm, rpc, signer), HSM_PIN: 'secret-pin-by-env' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as Error).message).not.toContain(hsm.pin);
      expect((err as Error).message).not.toContain('secret-pin-by-env');
    }
  });

  it('a PIN file others may read is refused outside development, like a key file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsm-pin-'));
    const pinFile = join(dir, 'pin');
    writeFileSync(pinFile, hsm.pin, { mode: 0o644 });
    try {
      const env = { ...chainsEnv(hsm, rpc, { pinFile }), APP_ENV: 'production' };
      expect(() => loadConfig(env)).toThrow(`CHAINS.31337.signer.pinFile "${pinFile}" is readable by others than its owner (mode 0644): chmod 600 it`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a signer beside agentKeyEnv is refused', () => {
    const chains = JSON.parse(chainsEnv(hsm, rpc).CHAINS);
    chains[CHAIN].agentKeyEnv = 'AGENT_KEY';
    expect(() => loadConfig({ CHAINS: JSON.stringify(chains), AGENT_KEY: `0x${'1f'.repeat(32)}` })).toThrow(
      'CHAINS.31337 must name a signer or agentKeyEnv / agentKeyFile, not both',
    );
  });

  it.each([
    [{ tokenLabel: 'elsewhere' }, 'chain 31337: the PKCS#11 library /usr/lib/softhsm/libsofthsm2.so has no token labelled "elsewhere" (tokens: "mistakes")'],
    [{ keyLabel: 'absent' }, 'chain 31337: token "mistakes" holds no key labelled "absent" (create it: npm run hsm-key)'],
    [
      { keyLabel: 'leaky' },
      'chain 31337: the key labelled "leaky" in token "mistakes" could leave the HSM (CKA_SENSITIVE false, CKA_EXTRACTABLE true): an agent key must be sensitive and not extractable',
    ],
    [{ pinFile: undefined, pinEnv: 'HSM_PIN' }, 'chain 31337: logging in to the PKCS#11 token "mistakes" failed: CKR_PIN_INCORRECT'],
  ])('at start %#: %s', (signer, message) => {
    const config = loadConfig({ ...chainsEnv(hsm, rpc, signer), HSM_PIN: 'not-the-pin' });
    expect(() => new Chains(config.chains!)).toThrow(message);
  });

  it('`npm run hsm-key` refuses a label the token already holds', () => {
    expect(() =>
      execFileSync('node', ['dist/scripts/hsm-key.js', '--library', hsm.library, '--token', hsm.tokenLabel, '--label', KEY_LABEL, '--pin-file', hsm.pinFile], {
        env: process.env,
        stdio: 'pipe',
      }),
    ).toThrow(`token "mistakes" already holds a key labelled "${KEY_LABEL}"`);
  });
});
