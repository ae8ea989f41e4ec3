import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The eligibility module's SQL for the token's rules (docs/architecture.md, "SQL").
 *
 * Kept as SQL, no benchmark pays for it: share classes are chosen by a field of their
 * `sub_redemption` jsonb, for which the ORM has no operator.
 */

/** A token of a share class naming a rule set, on a chain whose identity registry the gateway knows. */
export interface RuleSetTokenRow {
  share_class_id: string;
  chain_id: string;
  contract_address: string;
  decimals: number;
}

/** The gateway's tokens of every share class naming the code, on chains it knows the registry of. */
export function ruleSetTokens(em: EntityManager, code: string): Promise<RuleSetTokenRow[]> {
  return rawRows<RuleSetTokenRow>(
    em,
    `select t.share_class_id, t.chain_id, t.contract_address, t.decimals from token t
       join share_class sc on sc.id = t.share_class_id
      where sc.sub_redemption->>'eligible_investors' = ? and t.identity_registry is not null order by t.id`,
    [code],
  );
}

/** The wallets on the chain of the class's holders (MaxBalanceModule is told what each identity holds). */
export async function holderWalletsOn(em: EntityManager, shareClassId: string, chainId: string): Promise<string[]> {
  const rows = await rawRows<{ address: string }>(
    em,
    `select distinct w.address from investor_wallet w join holding h on h.investor_id = w.investor_id
      where h.share_class_id = ? and h.balance > 0 and w.chain_id = ? order by w.address`,
    [shareClassId, chainId],
  );
  return rows.map((r) => r.address);
}

/** A rule set's columns, as the check reads them (decimals as exact text). */
export interface RuleRow {
  code: string;
  allowed_countries: string[] | null;
  blocked_countries: string[];
  allowed_categories: string[] | null;
  max_holders: number | null;
  max_holding_per_investor: string | null;
  supply_cap: string | null;
}

const RULES_COLUMNS = `r.code, r.allowed_countries, r.blocked_countries, r.allowed_categories, r.max_holders,
  r.max_holding_per_investor::text as max_holding_per_investor, r.supply_cap::text as supply_cap`;

/** An investor's side of the check, with the rule set its class names (all null when none). */
export type FactsRow = Partial<RuleRow> & { id: string; country_code: string | null; category: string | null; kyc_expires_at: Date | string | null };

/* The rule set a share class's `eligibleInvestors` code names, and the investors' facts, in one statement. */
const FACTS_SQL = `select i.id, i.country_code, i.category, i.kyc_expires_at, ${RULES_COLUMNS}
  from investor i
  left join share_class sc on sc.id = ?
  left join eligibility_rule_set r on r.code = sc.sub_redemption->>'eligible_investors'
  where i.id = any(?::text[])`;

/**
 * The class's rule set and the investors' facts in one statement (a dealing date's batch asks for
 * all its rows' investors at once). Kept as SQL: the class's code is a field of its
 * `sub_redemption` jsonb, joined on.
 */
export function eligibilityFactsRows(em: EntityManager, shareClassId: string, investorIds: string[]): Promise<FactsRow[]> {
  return rawRows<FactsRow>(em, FACTS_SQL, [shareClassId, investorIds]);
}

/*
 * The investor's and the class's tokens: settled (holdings) plus subscriptions accepted and not
 * yet settled, which will mint (an order being accepted or settled now is left out: it is the one asked about).
 */
const POSITION_SQL = `select
  (select coalesce(sum(h.balance), 0) from holding h where h.share_class_id = ? and h.investor_id = ?)
    + (select coalesce(sum(o.settlement_tokens), 0) from "order" o where o.share_class_id = ? and o.investor_id = ? and o.type = 'subscription' and o.status = 'accepted' and o.id <> ?) as holding,
  (select count(distinct x.investor_id)::int from (
    select h.investor_id from holding h where h.share_class_id = ? and h.balance > 0
    union select o.investor_id from "order" o where o.share_class_id = ? and o.type = 'subscription' and o.status = 'accepted' and o.id <> ?) x
    where x.investor_id <> ?) as other_holders,
  (select coalesce(sum(h.balance), 0) from holding h where h.share_class_id = ?)
    + (select coalesce(sum(o.settlement_tokens), 0) from "order" o where o.share_class_id = ? and o.type = 'subscription' and o.status = 'accepted' and o.id <> ?) as supply`;

/** The investor's tokens, the class's other holders and its supply. */
export interface PositionRow {
  holding: string;
  other_holders: number;
  supply: string;
}

/** The investor's and the class's tokens now, leaving out `exceptOrderId`. Kept as SQL: sums and a distinct count over holdings and accepted orders. */
export async function positionRow(em: EntityManager, investorId: string, shareClassId: string, exceptOrderId: string): Promise<PositionRow> {
  const [row] = await rawRows<PositionRow>(em, POSITION_SQL, [
    shareClassId,
    investorId,
    shareClassId,
    investorId,
    exceptOrderId,
    shareClassId,
    shareClassId,
    exceptOrderId,
    investorId,
    shareClassId,
    shareClassId,
    exceptOrderId,
  ]);
  return row;
}

/** A holder's settled tokens. */
export interface SettledRow {
  investor_id: string;
  balance: string;
}

/** A class's settled position: each holder's tokens. Kept as SQL: plain rows of every holder (no managed holding each), balances as exact text. */
export function settledHoldings(em: EntityManager, shareClassId: string): Promise<SettledRow[]> {
  return rawRows<SettledRow>(em, `select h.investor_id, h.balance::text as balance from holding h where h.share_class_id = ? and h.balance > 0`, [
    shareClassId,
  ]);
}

/** A holder of a class naming a rule set, with what the rules read of it. */
export interface RuleHolderRow {
  investor_id: string;
  share_class_id: string;
  balance: string;
  country_code: string | null;
  category: string | null;
}

/** The holders of every share class naming the code. Kept as SQL: the class's code is a field of its `sub_redemption` jsonb. */
export function ruleHolders(em: EntityManager, code: string): Promise<RuleHolderRow[]> {
  return rawRows<RuleHolderRow>(
    em,
    `select h.investor_id, h.share_class_id, h.balance::text as balance, i.country_code, i.category
  from holding h join share_class sc on sc.id = h.share_class_id join investor i on i.id = h.investor_id
  where sc.sub_redemption->>'eligible_investors' = ? and h.balance > 0
  order by h.investor_id, h.share_class_id`,
    [code],
  );
}
