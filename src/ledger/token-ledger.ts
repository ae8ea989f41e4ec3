import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * The token ledger: what the domain needs of a chain, in its own words (docs/architecture.md#the-chain-port).
 * The settlement, distribution, investor, approval, correction and register modules speak only to
 * this interface; the chain adapter (src/modules/chain/chain-ledger.ts) implements it and alone
 * knows viem, the ERC-3643 ABIs and calldata. It lies below the modules (it imports nothing of
 * the gateway) so that both sides import it and the adapter still imports no module; the
 * composition root (src/services.ts) hands the adapter to the modules as this port.
 */

/** A wallet, token, identity registry or identity: an address as the chain writes it (0x…). */
export type Address = string;

/** One row of a batch: a wallet and its tokens in the token's units. */
export interface LedgerRow {
  wallet: Address;
  units: bigint;
}

/** A write on a token, a registry or an identity, in the domain's words. */
export type LedgerCall =
  | { op: 'mint' | 'burn'; token: Address; wallet: Address; units: bigint }
  | { op: 'batchMint' | 'batchBurn'; token: Address; rows: LedgerRow[] }
  | { op: 'freezePartial' | 'unfreezePartial'; token: Address; wallet: Address; units: bigint }
  | { op: 'batchFreezePartial' | 'batchUnfreezePartial'; token: Address; rows: LedgerRow[] }
  | { op: 'setFrozen'; token: Address; wallet: Address; frozen: boolean }
  | { op: 'forcedTransfer'; token: Address; from: Address; to: Address; units: bigint }
  /** T-REX's `recoveryAddress`: the lost wallet's tokens, freeze and registration move to the fresh one. */
  | { op: 'recoverWallet'; token: Address; lost: Address; fresh: Address; identity: Address }
  /** The wallet's identity in a registry, with the investor's country (ISO 3166-1 numeric, 0: unknown). */
  | { op: 'registerIdentity'; registry: Address; wallet: Address; identity: Address; country: number }
  /** The country a registry stores for a registered wallet (ISO 3166-1 numeric). */
  | { op: 'updateCountry'; registry: Address; wallet: Address; country: number }
  | { op: 'deleteIdentity'; registry: Address; wallet: Address }
  /** The wallet as a management key of an identity (a recovery needs it). */
  | { op: 'addManagementKey'; identity: Address; wallet: Address };

/**
 * Who an intent serves and why: `purpose` (a family and a step, `settlement.mint`) routes its
 * outcome; `correlation` is the domain's opaque key (`order:OR…`), at most one intent per value;
 * `walletId` the investor wallet a whitelisting step serves.
 */
export interface IntentMeta {
  chainId: string;
  purpose: string;
  correlation?: string;
  walletId?: string;
}

/** An intent as the domain sees it (the adapter's row has more). */
export interface LedgerIntent {
  readonly id: string;
  readonly chainId: string;
  readonly purpose: string;
  readonly correlation?: string;
  readonly walletId?: string;
  /** The token, registry or identity it calls; null for a creation. */
  readonly toAddress?: string;
}

/** A log of the receipt (a settlement finds each order's `Transfer` in it with `transfersIn`). */
export interface LedgerLog {
  address: string;
  logIndex: number | null;
  topics: readonly string[];
  data: string;
}

/** How an intent ended at its confirmation depth (or before reaching a block). */
export type LedgerOutcome =
  { ok: true; hash: string; contractAddress: string | null; logs?: readonly LedgerLog[] } | { ok: false; reason: string; hash: string | null };

/** Declares what an intent's outcome means, inside the transaction that makes the intent final (once). */
export type LedgerOutcomeHandler = (em: EntityManager, intent: LedgerIntent, outcome: LedgerOutcome) => Promise<void>;

/** A `Transfer` of a token, addresses lower-cased. */
export interface TokenTransfer {
  logIndex: number;
  from: Address;
  to: Address;
  value: bigint;
}

/** What a receipt read found: nothing, or whether it succeeded and the token's transfers in it. */
export type ReceiptTransfers = { found: false } | { found: true; ok: boolean; transfers: TokenTransfer[] };

/** What a token contract checks of a wallet before it mints or burns. */
export interface WalletFacts {
  verified: boolean;
  frozen: boolean;
  balance: bigint;
}

/** What the gateway's KYC claim says: until when the investor's KYC holds (null: no expiry), and which issue of the claim it is. */
export interface KycClaimData {
  expiresAt: Date | null;
  issue: number;
}

/** The address that mints come from and burns go to. */
export const NO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

export interface TokenLedger {
  /** Whether the gateway reads this chain (configured). */
  reads(chainId: string): boolean;
  /** Whether the gateway writes to it (an agent key). */
  writes(chainId: string): boolean;
  /** A 503 (SERVICE_UNAVAILABLE with retryAfter) while the chain does not answer. */
  reachable(chainId: string): Promise<void>;
  /** Throws the chain's 4xx unless the gateway writes to it. */
  requireWritable(chainId: string): void;

  /**
   * Writes an intent into the caller's unit of work: it exists once the caller's transaction
   * commits, or not at all; `wake()` after the commit. Exactly-once: its outcome is declared once.
   */
  intend(em: EntityManager, meta: IntentMeta, call: LedgerCall): LedgerIntent;
  /**
   * What identities on the chain need (the claim issuer, the identity implementation), deployed
   * on first use; waits for the chain and writes on its own connection, so call it before a transaction.
   */
  prepareIdentities(chainId: string): Promise<void>;
  /** An ONCHAINID identity for a wallet, managed by the agent key (its creation's outcome carries the address). */
  intendIdentity(em: EntityManager, meta: IntentMeta): Promise<LedgerIntent>;
  /**
   * The gateway's KYC claim, signed by its claim issuer, added to an identity (it replaces the
   * issuer's claim there): its data carries the KYC expiry and the claim's issue number.
   */
  intendKycClaim(em: EntityManager, meta: IntentMeta, identity: Address, claim: KycClaimData): Promise<LedgerIntent>;
  /** Revokes, through the gateway's claim issuer, the KYC claim it issued that an identity holds: the identity is no longer verified. */
  intendKycRevocation(em: EntityManager, meta: IntentMeta, identity: Address): Promise<LedgerIntent>;
  /** Of these correlations, those an intent already carries (at most one intent carries each). */
  correlated(em: EntityManager, correlations: readonly string[]): Promise<Set<string>>;
  /** Intents of a wallet with these purposes not yet final (but `except`). */
  openIntents(em: EntityManager, walletId: string, purposes: readonly string[], except?: string): Promise<number>;
  /** Registers what an outcome of `purpose` (or of every `purpose.*`) means, once at wiring. */
  onOutcome(purpose: string, handler: LedgerOutcomeHandler): void;
  /** Wakes the sender after a commit that wrote intents. */
  wake(): void;
  /** One call sent and waited for to one block (the demo's first mints). */
  executeNow(chainId: string, purpose: string, call: LedgerCall, step: string): Promise<void>;
  /** The gas a call would take now (sizing batches). */
  estimateGas(chainId: string, call: LedgerCall): Promise<bigint>;

  /** The chain's head block now (a 503 when the chain does not answer): what a reconciliation pins its reads to. */
  headBlock(chainId: string): Promise<bigint>;
  balanceOf(chainId: string, token: Address, wallet: Address, atBlock?: bigint): Promise<bigint>;
  totalSupply(chainId: string, token: Address, atBlock?: bigint): Promise<bigint>;
  frozenTokens(chainId: string, token: Address, wallet: Address): Promise<bigint>;
  isFrozen(chainId: string, token: Address, wallet: Address): Promise<boolean>;
  decimals(chainId: string, token: Address): Promise<number>;
  /** The country a registry stores for a wallet (ISO 3166-1 numeric); null when the wallet is not registered there. */
  registeredCountry(chainId: string, registry: Address, wallet: Address): Promise<number | null>;
  /** Each wallet's facts, read at once (JSON-RPC batches), keyed by the lower-cased address. */
  walletFacts(chainId: string, token: { address: Address; registry: Address }, wallets: Address[]): Promise<Map<string, WalletFacts>>;
  /** The token's transfers in a transaction's receipt; a 503 when the chain does not answer. */
  receiptTransfers(chainId: string, hash: string, token: Address): Promise<ReceiptTransfers>;
  /** The token's transfers among an outcome's logs. */
  transfersIn(logs: readonly LedgerLog[], token: Address): TokenTransfer[];
  /** The last block before `closesAt`, with its time; null when the chain had none yet. */
  closingBlock(chainId: string, closesAt: Date): Promise<{ number: bigint; timestamp: Date } | null>;
}
