import { createPublicClient, defineChain, fallback, http, type Chain, type PublicClient } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import type { ChainConfig, ChainsConfig } from '../../config/chains';
import { agentAccount, type AgentSigner } from './signer/agent-signer';
import { openSigner } from './signer/open-signer';

/** Calls per JSON-RPC batch request (nodes cap a batch; 1,000 is a common limit). */
const READS_PER_BATCH = 500;

/** One configured chain: its reads (viem public client over its RPC URLs) and its agent account. */
export class ChainHandle {
  readonly chain: Chain;
  readonly client: PublicClient;
  /** The same reads, with concurrent calls sent in JSON-RPC batches (one HTTP request per batch): a dealing date's checks of many wallets. */
  readonly batchReads: PublicClient;
  /** Who holds the agent key (this process, or an HSM); null when none is configured (read only). */
  readonly signer: AgentSigner | null;
  /** The agent account signing the gateway's transactions, over the signer; null when read only. */
  readonly account: LocalAccount | null;

  constructor(readonly config: ChainConfig) {
    this.chain = defineChain({
      id: Number(config.chainId),
      name: `chain ${config.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: config.rpcUrls } },
    });
    // No retries inside a request: the sender's next pass is the retry, with the intent's state in hand.
    // No cached block number: confirmations are counted from the head as it is now (viem caches it for
    // cacheTime, which counted a block just mined as 0 confirmations).
    const transports = config.rpcUrls.map((url) => http(url, { retryCount: 0, timeout: 10_000 }));
    this.client = createPublicClient({
      chain: this.chain,
      transport: transports.length === 1 ? transports[0] : fallback(transports),
      pollingInterval: 250,
      cacheTime: 0,
    });
    const batched = config.rpcUrls.map((url) => http(url, { retryCount: 0, timeout: 30_000, batch: { batchSize: READS_PER_BATCH } }));
    this.batchReads = createPublicClient({ chain: this.chain, transport: batched.length === 1 ? batched[0] : fallback(batched), cacheTime: 0 });
    this.signer = openSigner(config);
    this.account = this.signer ? agentAccount(this.signer) : null;
  }

  get id(): string {
    return this.config.chainId;
  }

  /** The agent address, lower-cased as the gateway stores addresses it writes. */
  get agent(): `0x${string}` | null {
    return this.account ? (this.account.address.toLowerCase() as `0x${string}`) : null;
  }
}

/** The chains the gateway speaks to, by chain id. */
export class Chains {
  private readonly handles = new Map<string, ChainHandle>();

  constructor(configs: ChainsConfig = {}) {
    try {
      for (const c of Object.values(configs)) this.handles.set(c.chainId, new ChainHandle(c));
    } catch (err) {
      // A signer that could not open (an HSM away, a wrong PIN): the sessions of the others end too.
      void this.close();
      throw err;
    }
  }

  get(chainId: string): ChainHandle | null {
    return this.handles.get(chainId) ?? null;
  }

  all(): ChainHandle[] {
    return [...this.handles.values()];
  }

  /** Chains whose agent key is configured: those the gateway writes to. */
  writable(): ChainHandle[] {
    return this.all().filter((h) => h.account);
  }

  /** Ends the signers' sessions (an HSM's): the gateway's close. */
  async close(): Promise<void> {
    await Promise.all(this.all().map(async (h) => h.signer?.close()));
  }
}
