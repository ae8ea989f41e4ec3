import { forbidden } from '../common/errors';
import { recordId } from '../common/ids';
import type { OpsRole } from './principal';

/**
 * Segregation of duties (issue 43): no one person's chain of steps ends in tokens reaching or
 * leaving a wallet. Written once, as data, beside the role rules (ops-roles.ts): each action
 * that ends in a chain intent, who counts as its parties and whether a second one must take part
 * (DUTIES); and what every ops mutation is to those actions (`mutationDuties`, written by each
 * module in its manifest, src/modules/<m>/index.ts, beside its role rules), which the gateway
 * enforces at start as it does the role rules (src/transports/graphql/ops-guard.ts): a mutation
 * without a line stops it. Every ops mutation is classified: `nothing` enqueues no chain intent and
 * runs no action above (a record of a transfer made elsewhere, checked on chain, is not one:
 * `recordSupplyOutcome`, `settleOneStepOrder` with a hash); `step` takes a step whose principal
 * counts as a party; `ends` enqueues the action's intents (or, for a four-eyes request, runs it). The check itself runs where each intent is enqueued
 * (`requireDuty` / `dutyRefusal`), so it holds on every path, the dealing date's batch included.
 * docs/approvals.md shows the matrix as a table (`dutyMatrixTable`, checked by a test).
 */

/** How a second party takes part in an action. */
export type DutyRule =
  /** Checked where the intent is enqueued: the steps' principals must be two parties. */
  | 'second party'
  /** A four-eyes request (src/modules/approval): one principal requests, another approves. */
  | 'four-eyes request'
  /** One principal may: the action moves no token to or from a holder (said why in `other`). */
  | 'one principal';

export interface Duty {
  /** The action, as a refusal and docs/approvals.md name it. */
  action: string;
  /** The chain intents (chain_transaction.purpose) it ends in; none for a register-only action. */
  intents: readonly string[];
  /** The steps whose principals are its parties. */
  parties: string;
  rule: DutyRule;
  /** Who counts as the other party (or, for one principal, why none is needed). */
  other: string;
}

export const DUTIES = {
  orderSettlement: {
    action: "minting or burning a one-step order's tokens",
    intents: ['settlement.mint', 'settlement.burn', 'settlement.batchMint', 'settlement.batchBurn'],
    parties: "the order's placer, every principal of its status history (its accepter), and the settler",
    rule: 'second party',
    other: "the distributor's own authenticated placement (surface R or O) or a second ops principal accepting or settling the order",
  },
  walletWhitelisting: {
    action: "registering a wallet's identity on chain (whitelisting)",
    intents: ['wallet.identity', 'wallet.claim', 'wallet.register'],
    parties: 'the principal that added the wallet and the one that whitelists it',
    rule: 'second party',
    other: 'a second ops principal whitelisting the wallet another added (`whitelistInvestorWallet`)',
  },
  incomeReinvestment: {
    action: 'minting a distribution reinvested as new tokens',
    intents: ['distribution.batchMint'],
    parties: 'the principal that declared the distribution and the one that pays it (or sends its failed rows again)',
    rule: 'second party',
    other: 'a second ops principal paying what another declared',
  },
  walletRecovery: {
    action: "recovering a lost wallet's tokens to a new wallet",
    intents: ['wallet.recoveryKey', 'wallet.recover', 'wallet.unfreeze'],
    parties: 'the requester and the approver',
    rule: 'four-eyes request',
    other: 'an approver other than the requester (`approveRequest`)',
  },
  forcedTransfer: {
    action: 'a forced transfer between holders',
    intents: ['forced.transfer'],
    parties: 'the requester and the approver',
    rule: 'four-eyes request',
    other: 'an approver other than the requester (`approveRequest`)',
  },
  navCorrection: {
    action: "compensating orders settled at a corrected NAV (minting to or burning from the investor's own wallet)",
    intents: ['correction.batchMint', 'correction.batchBurn'],
    parties: 'the requester and the approver',
    rule: 'four-eyes request',
    other: 'an approver other than the requester (`approveRequest`)',
  },
  holdingAdjustment: {
    action: 'adjusting a holding on the register',
    intents: [],
    parties: 'the requester and the approver',
    rule: 'four-eyes request',
    other: 'an approver other than the requester (`approveRequest`)',
  },
  walletFreeze: {
    action: "freezing a wallet (on a share class's token, or on every token as a compromised wallet is removed and its identity deleted)",
    intents: ['wallet.freeze', 'wallet.delete'],
    parties: 'the operator',
    rule: 'one principal',
    other: 'none: it moves no token and stops a wallet at once',
  },
  walletUnfreeze: {
    action: "unfreezing a wallet an operator froze on a share class's token",
    intents: ['wallet.thaw'],
    parties: 'the requester and the approver',
    rule: 'four-eyes request',
    other: 'an approver other than the requester (`approveRequest`)',
  },
  tokenDeployment: {
    action: "deploying a share class's token contracts",
    intents: ['deploy'],
    parties: 'the operator',
    rule: 'one principal',
    other: 'none: a contract is created, no token reaches or leaves a wallet',
  },
} as const satisfies Record<string, Duty>;

export type DutyName = keyof typeof DUTIES;

/** What an ops mutation is to the duties: the actions it ends (where the check runs) and those it is a step of. */
export interface MutationDuty {
  ends: readonly DutyName[];
  steps: readonly DutyName[];
}

/** The ops role and duty rules of root fields, by field name (what src/access/ops-roles.ts and duties.ts read). */
export interface OpsRules {
  /** The role an ops principal needs for each mutation: every mutation has one. */
  mutationRoles: Readonly<Record<string, OpsRole>>;
  /** Reads that need more than `viewer`. */
  queryRoles: Readonly<Record<string, OpsRole>>;
  /** What each mutation is to the duties (src/access/duties.ts): every mutation has a line. */
  mutationDuties: Readonly<Record<string, MutationDuty>>;
}

/** Mutation duty lines, as each module's manifest writes them (src/modules/<m>/index.ts). */
export const nothing: MutationDuty = { ends: [], steps: [] };
export const ends = (...duties: DutyName[]): MutationDuty => ({ ends: duties, steps: [] });
export const step = (...duties: DutyName[]): MutationDuty => ({ ends: [], steps: duties });

/** The mutations that end an action needing a second party (what the duty tests walk). */
export function mutationsEnding(duties: OpsRules['mutationDuties'], rule: DutyRule): string[] {
  return Object.entries(duties)
    .filter(([, d]) => d.ends.some((name) => DUTIES[name].rule === rule))
    .map(([field]) => field);
}

/*
 * Parties. A principal label (src/access/principal.ts `principalLabel`, every record's
 * `…_principal` column) names a person when it is an ops principal or a distributor; a
 * background job (`seed`, `chain`, `factory`…) is nobody's second pair of eyes.
 */

/** The party a principal label stands for, or null for a job. A distributor is one party on both surfaces (`partner:PT…` is `distributor:DT…`). */
function partyOf(label: string | null | undefined): string | null {
  if (!label) return null;
  const at = label.indexOf(':');
  const kind = label.slice(0, at);
  const id = label.slice(at + 1);
  if (at < 0 || !id) return null;
  // Ops names are case-folded: `OP1` and `op1` are one person, never two pairs of eyes.
  if (kind === 'ops') return `ops:${id.toLowerCase()}`;
  if (kind === 'distributor') return `distributor:${id}`;
  if (kind === 'partner') return `distributor:${recordId(id, 'distributor', 'O') ?? id}`;
  return null;
}

/**
 * Whether two principal labels are the same party: the one comparison of parties for the duties
 * (requester ≠ approver, maker ≠ checker). A job is no party, so never the same as anyone.
 */
export function sameParty(a: string | null | undefined, b: string | null | undefined): boolean {
  const pa = partyOf(a);
  return pa !== null && pa === partyOf(b);
}

/**
 * The ops principal that took every step alone, or null when the steps had a second party: a
 * distributor's own call, or another ops principal. Steps by jobs alone (the demo's seed) have no
 * ops principal to check.
 */
export function loneOpsPrincipal(labels: readonly (string | null | undefined)[]): string | null {
  const persons: string[] = [];
  for (const label of labels) if (partyOf(label) && !persons.some((p) => sameParty(p, label))) persons.push(label!);
  return persons.length === 1 && partyOf(persons[0])!.startsWith('ops:') ? persons[0] : null;
}

/** The refusal of `duty` for steps taken by `labels`' principals, or null when a second party took part. */
export function dutyRefusal(duty: DutyName, labels: readonly (string | null | undefined)[]): string | null {
  const d: Duty = DUTIES[duty];
  if (d.rule !== 'second party') return null;
  const lone = loneOpsPrincipal(labels);
  return lone && `segregation of duties: ${d.action} needs a second party, ${d.other}; ${lone} took every step alone`;
}

/** FORBIDDEN with the duty's refusal when one ops principal took every step alone. */
export function requireDuty(duty: DutyName, labels: readonly (string | null | undefined)[]): void {
  const refusal = dutyRefusal(duty, labels);
  if (refusal) throw forbidden(refusal);
}

/** What is wrong with the matrix against the schema's mutations (empty: nothing); `where` names the file to edit for a mutation. */
export function dutyMatrixProblems(duties: OpsRules['mutationDuties'], mutations: readonly string[], where: (mutation: string) => string): string[] {
  const problems = mutations.filter((m) => !duties[m]).map((m) => `mutation ${m} has no duty line (${where(m)})`);
  for (const name of Object.keys(duties)) if (!mutations.includes(name)) problems.push(`duty line for mutation ${name}, which does not exist (${where(name)})`);
  return problems;
}

/** The matrix as docs/approvals.md shows it: one row per action, with the mutations that end it and their role. */
export function dutyMatrixTable(rules: OpsRules): string {
  const rows = (Object.entries(DUTIES) as [DutyName, Duty][]).map(([name, d]) => {
    const of = (part: keyof MutationDuty) =>
      Object.entries(rules.mutationDuties)
        .filter(([, m]) => m[part].includes(name))
        .map(([field]) => `\`${field}\` (${rules.mutationRoles[field]})`)
        .join(', ') || '—';
    return `| ${d.action} | ${of('ends')} | ${of('steps')} | ${d.parties} | ${d.rule} | ${d.other} |`;
  });
  return [
    '| action | done by (role) | steps before it (role) | parties | second party | who counts as the other one |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** One row of the matrix as the console shows it (`opsDuties`): the action, its rule, and the mutations that end it. */
export interface DutyRow {
  action: string;
  rule: DutyRule;
  parties: string;
  other: string;
  /** The mutations that end the action, each with the role it needs. */
  doneBy: { mutation: string; role: string }[];
}

/** The matrix's rows, in DUTIES order. */
export function dutyRows(rules: OpsRules): DutyRow[] {
  return (Object.entries(DUTIES) as [DutyName, Duty][]).map(([name, d]) => ({
    action: d.action,
    rule: d.rule,
    parties: d.parties,
    other: d.other,
    doneBy: Object.entries(rules.mutationDuties)
      .filter(([, m]) => m.ends.includes(name))
      .map(([mutation]) => ({ mutation, role: rules.mutationRoles[mutation] })),
  }));
}
