import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { nextId } from '../../common/ids';
import { appendEvent } from '../../events/event-log';
import type { ServiceContext } from '../../access/service-context';
import { chainId, evmAddress, intInRange, optional, readInput, required } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import { ShareClass, shareClassNotFound } from '../share-class';
import { Token } from './token.entity';
import { cannotUnsetPrimary, tokenAddressTaken, tokenNotFound } from './token.errors';
import type { ChainService, ComplianceRules, TokenOnChain } from '../chain';
import { badRequest } from '../../common/errors';

/** The primary token of a share class; its chain is the share class's `defaultChainId`. */
export function findPrimaryToken(em: EntityManager, shareClassId: string): Promise<Token | null> {
  return em.findOne(Token, { shareClass: shareClassId, isPrimary: true });
}

export interface TokenFields {
  shareClassId?: string | null;
  chainId?: string | null;
  contractAddress?: string | null;
  name?: string | null;
  symbol?: string | null;
  decimals?: number | null;
  isPrimary?: boolean | null;
}

/**
 * Tokens of share classes. A share class has exactly one primary token (a partial unique index
 * holds it); moving the flag happens in one transaction with the share class row locked, so
 * concurrent moves queue instead of colliding.
 */
/**
 * The rules a share class's token enforces (its eligibility rule set's countries, maximum holding
 * and supply cap): the eligibility module, later in the modules' order, provides them (src/services.ts).
 */
export type TokenComplianceRules = (em: EntityManager, shareClassId: string) => Promise<ComplianceRules | null>;

export class TokenService {
  constructor(
    private readonly clock: Clock,
    /** Chains the gateway writes to: their tokens are deployed by it or checked on chain. */
    private readonly chain: ChainService | null = null,
    private readonly complianceRules: TokenComplianceRules = () => Promise.resolve(null),
  ) {}

  /**
   * Ops deploy a full ERC-3643 suite for a share class on a chain whose key may deploy, and record
   * it as a token of the share class (src/modules/chain/chain.service.ts, `deploySuite`).
   */
  async deploy(ctx: ServiceContext, input: Omit<TokenFields, 'contractAddress'>): Promise<Token> {
    ctx.access.requireOps();
    const { shareClassId, chain, ...fields } = readInput((p) => ({
      shareClassId: p.take('shareClassId', () => required(input.shareClassId, 'shareClassId')),
      chain: p.take('chainId', () => chainId(input.chainId)),
      name: p.take('name', () => required(input.name, 'name').trim()),
      symbol: p.take('symbol', () => required(input.symbol, 'symbol').trim()),
      decimals: p.take('decimals', () => intInRange(input.decimals, 'decimals', 0, 18)),
    }));
    if (!(await ctx.em.count(ShareClass, { id: shareClassId }))) throw shareClassNotFound();
    if (!this.chain) throw badRequest(`chain ${chain} is not configured`);
    this.chain.writable(chain);
    // The token as the request names it (no row exists before its address does): a retry after a
    // crash finds the suite already deployed under it instead of deploying a second one. It is
    // born with the compliance modules its share class's rule set needs (docs/compliance.md).
    const rules = await this.complianceRules(ctx.em, shareClassId);
    const onChain = await this.chain.deploySuite(chain, `${shareClassId}/${fields.symbol}`, fields, rules);
    return this.record(ctx, shareClassId, { chainId: chain, ...fields, isPrimary: input.isPrimary }, onChain);
  }

  /** The event every token change appends in its transaction: the primary token is its share class's `defaultChainId`. */
  private changed(em: EntityManager, tokenId: string, shareClassId: string, type: string): void {
    appendEvent(em, { type, aggregateType: 'token', aggregateId: tokenId, payload: { tokenId, shareClassId }, occurredAt: this.clock.now() });
  }

  async create(ctx: ServiceContext, input: TokenFields): Promise<Token> {
    ctx.access.requireOps();
    const { shareClassId, ...fields } = readInput((p) => ({
      shareClassId: p.take('shareClassId', () => required(input.shareClassId, 'shareClassId')),
      chainId: p.take('chainId', () => chainId(input.chainId)),
      contractAddress: p.take('contractAddress', () => evmAddress(input.contractAddress, 'contractAddress')),
      name: p.take('name', () => required(input.name, 'name').trim()),
      symbol: p.take('symbol', () => required(input.symbol, 'symbol').trim()),
      decimals: p.take('decimals', () => intInRange(input.decimals, 'decimals', 0, 36)),
    }));
    // On a chain the gateway writes to, the token must be one it can settle with: checked on chain.
    const onChain = this.chain?.writes(fields.chainId) ? await this.chain.verifyToken(fields.chainId, fields.contractAddress, fields.decimals) : null;
    return this.record(ctx, shareClassId, { ...fields, isPrimary: input.isPrimary }, onChain);
  }

  /** Inserts a token of a share class; `isPrimary` (or being its first) moves the primary flag to it. */
  private async record(
    ctx: ServiceContext,
    shareClassId: string,
    input: { chainId: string; contractAddress?: string; name: string; symbol: string; decimals: number; isPrimary?: boolean | null },
    onChain: TokenOnChain | null,
  ): Promise<Token> {
    const { isPrimary, ...rest } = input;
    const fields = {
      ...rest,
      contractAddress: onChain?.contractAddress ?? rest.contractAddress!,
      identityRegistry: onChain?.identityRegistry,
      identityStorage: onChain?.identityStorage,
    };
    const id = await ctx.em.transactional(async (tem) => {
      await this.lockShareClass(tem, shareClassId);
      await this.assertAddressFree(tem, fields.chainId, fields.contractAddress);
      const hasPrimary = (await tem.count(Token, { shareClass: shareClassId, isPrimary: true })) > 0;
      const primary = isPrimary === true || !hasPrimary;
      if (primary) await tem.nativeUpdate(Token, { shareClass: shareClassId, isPrimary: true }, { isPrimary: false });
      const token = tem.create(Token, { id: await nextId(tem, 'TK'), shareClass: shareClassId, ...fields, isPrimary: primary });
      this.changed(tem, token.id, shareClassId, 'token.created');
      await tem.flush();
      return token.id;
    });
    return this.reloaded(ctx, id);
  }

  async update(ctx: ServiceContext, id: string, input: Omit<TokenFields, 'shareClassId' | 'chainId'>): Promise<Token> {
    const current = await this.get(ctx, id);
    const changes: Partial<Token> = {};
    if (input.contractAddress != null) changes.contractAddress = evmAddress(input.contractAddress, 'contractAddress');
    if (input.name != null) changes.name = required(input.name, 'name').trim();
    if (input.symbol != null) changes.symbol = required(input.symbol, 'symbol').trim();
    if (input.decimals != null) changes.decimals = intInRange(input.decimals, 'decimals', 0, 36);
    if (input.isPrimary === false && current.isPrimary) throw cannotUnsetPrimary();
    const shareClassId = current.shareClass.id;
    await ctx.em.transactional(async (tem) => {
      await this.lockShareClass(tem, shareClassId);
      const token = await tem.findOneOrFail(Token, { id });
      if (changes.contractAddress && changes.contractAddress !== token.contractAddress) {
        await this.assertAddressFree(tem, token.chainId, changes.contractAddress);
      }
      if (input.isPrimary === true && !token.isPrimary) {
        // Clear the old primary first: the partial unique index allows one at a time.
        await tem.nativeUpdate(Token, { shareClass: shareClassId, isPrimary: true }, { isPrimary: false });
        changes.isPrimary = true;
      }
      tem.assign(token, changes);
      this.changed(tem, token.id, shareClassId, 'token.updated');
      await tem.flush();
    });
    return this.reloaded(ctx, id);
  }

  async get(ctx: ServiceContext, id: string): Promise<Token> {
    ctx.access.requireOps();
    const token = await ctx.em.findOne(Token, { id: required(id, 'id') });
    if (!token) throw tokenNotFound(id);
    return token;
  }

  async list(
    ctx: ServiceContext,
    filter: { shareClassId?: string | null; chainId?: string | null } = {},
    page: { first?: number | null; after?: string | null } = {},
  ) {
    ctx.access.requireOps();
    const where: FilterQuery<Token> = {};
    const shareClassId = optional(filter.shareClassId, 'shareClassId');
    const chain = optional(filter.chainId, 'chainId');
    if (shareClassId) where.shareClass = shareClassId;
    if (chain) where.chainId = chain;
    return paginate(ctx.em, Token, where, page);
  }

  /** Serialises changes to a share class's tokens (`select … for update`). */
  private async lockShareClass(tem: EntityManager, shareClassId: string): Promise<void> {
    const sc = await tem.findOne(ShareClass, { id: shareClassId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!sc) throw shareClassNotFound();
  }

  private async assertAddressFree(tem: EntityManager, chain: string, address: string): Promise<void> {
    const taken = await tem.count(Token, { chainId: chain, contractAddress: { $ilike: address } });
    if (taken) throw tokenAddressTaken(chain, address);
  }

  /** The committed row, refreshed in the request's unit of work (bulk updates bypass it). */
  private async reloaded(ctx: ServiceContext, id: string): Promise<Token> {
    const token = await ctx.em.findOneOrFail(Token, { id }, { refresh: true });
    await ctx.em.find(Token, { shareClass: token.shareClass.id }, { refresh: true }); // siblings whose flag moved
    return token;
  }
}
