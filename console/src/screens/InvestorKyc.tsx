import { useState } from 'react';
import { isCategoryUpgrade, type InvestorCategoryValue } from '../../../src/common/investor-category-rank';
import { request } from '../api/client';
import { EligibilityRequestsWaitingDocument, RequestInvestorCategoryDocument, SetInvestorCategoryDocument, SetInvestorKycDocument } from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { count } from '../ui/format';
import { Facts, Mono, Panel } from '../ui/parts';
import { Link } from '../ui/router';
import { useApprovalsLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { CATEGORIES, categoryLabel } from './eligibility-draft';

/*
 * An investor's category and KYC (docs/compliance.md): what the eligibility rules read of them.
 * KYC dates are days in UTC, the zone the gateway's check and its refusals use ("KYC expired on
 * 2026-11-30"). A category change the gateway takes from one operator is set at once; an upgrade
 * is four-eyes, and the panel knows which before the submit (the gateway's own rule,
 * src/common/investor-category-rank.ts).
 */

const DAY = 86_400_000;
/** `2026-11-30 (UTC)`. */
const utcDay = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)} (UTC)`;
/** The value of a date input: the UTC day of `ms`. */
const dateValue = (ms: number | null | undefined) => (ms == null ? '' : new Date(ms).toISOString().slice(0, 10));
/** A date input's day as the start of that day in UTC; empty is none. */
const epochOf = (v: string) => (v ? Date.parse(`${v}T00:00:00Z`) : null);

/** KYC in words: valid, expiring in N days, expired, with the day and its zone. */
export function kycStatus(verifiedAt: number | null | undefined, expiresAt: number | null | undefined, now = Date.now()): string {
  if (expiresAt == null) return verifiedAt == null ? 'not verified' : 'valid (no expiry recorded)';
  if (expiresAt <= now) return `expired on ${utcDay(expiresAt)}: no new subscription, nothing minted until it is renewed`;
  const days = Math.ceil((expiresAt - now) / DAY);
  return days <= 30 ? `expires in ${count(days, 'day')}, on ${utcDay(expiresAt)}` : `valid until ${utcDay(expiresAt)}`;
}

export function InvestorKycPanel({
  investor,
  onChange,
}: {
  investor: { id: string; category?: string | null; kycVerifiedAt?: number | null; kycExpiresAt?: number | null };
  onChange: () => void;
}) {
  const [verified, setVerified] = useState(dateValue(investor.kycVerifiedAt));
  const [expires, setExpires] = useState(dateValue(investor.kycExpiresAt));
  const current = (investor.category ?? null) as InvestorCategoryValue | null;
  const [category, setCategory] = useState<string>('');
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const waiting = useQuery(EligibilityRequestsWaitingDocument, {}, `category-${investor.id}`);
  useApprovalsLive(() => void waiting.reload());
  const upgrades = (waiting.data?.approvalRequests ?? []).filter((r) => r.kind === 'investor_category' && r.investorId === investor.id);
  const chosen = category as InvestorCategoryValue | '';
  const upgrade = chosen !== '' && isCategoryUpgrade(current, chosen);
  const expired = investor.kycExpiresAt != null && investor.kycExpiresAt <= Date.now();
  return (
    <Panel title="Category and KYC">
      <Facts
        items={[
          ['Category', categoryLabel(current)],
          ['KYC verified', investor.kycVerifiedAt == null ? 'never' : utcDay(investor.kycVerifiedAt)],
          ['KYC', <span className={expired ? 'not-ready' : undefined}>{kycStatus(investor.kycVerifiedAt, investor.kycExpiresAt)}</span>],
        ]}
      />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ActionForm
        operation="setInvestorKyc"
        label="Record KYC"
        input="InvestorKycInput"
        submit={() => request(SetInvestorKycDocument, { input: { investorId: investor.id, verifiedAt: epochOf(verified), expiresAt: epochOf(expires) } })}
        onDone={() => (setNotice('KYC recorded.'), onChange())}
      >
        <div className="grid-fields">
          <Field label="Verified on (UTC)" name="verifiedAt" type="date" value={verified} onChange={setVerified} />
          <Field
            label="Expires on (UTC)"
            name="expiresAt"
            type="date"
            value={expires}
            onChange={setExpires}
            hint="From the start of that day the investor takes no new subscription"
          />
        </div>
      </ActionForm>
      <ActionForm
        operation={upgrade ? 'requestInvestorCategory' : 'setInvestorCategory'}
        label={upgrade ? 'Request the upgrade' : 'Set the category'}
        name="Change the category"
        blocked={chosen === '' || chosen === current}
        submit={() =>
          upgrade
            ? request(RequestInvestorCategoryDocument, { investorId: investor.id, category: chosen, reason })
            : request(SetInvestorCategoryDocument, { investorId: investor.id, category: chosen as InvestorCategoryValue })
        }
        onDone={() => {
          setNotice(
            upgrade ? `The upgrade to ${categoryLabel(chosen)} waits for another principal in Approvals.` : `Category set to ${categoryLabel(chosen)}.`,
          );
          setCategory('');
          setReason('');
          void waiting.reload();
          onChange();
        }}
      >
        <Select
          label="New category"
          name="category"
          value={category}
          onChange={(v) => (setCategory(v), setNotice(null))}
          options={[['', 'Choose…'], ...CATEGORIES.filter((c) => c !== current).map((c): [string, string] => [c, categoryLabel(c)])]}
        />
        {chosen !== '' && (
          <p role="note" className="field-note">
            {upgrade
              ? `An upgrade from ${categoryLabel(current ?? 'retail')}: it opens offerings meant for fewer, so another principal approves it.`
              : 'No upgrade: it applies at once.'}
          </p>
        )}
        {upgrade && (
          <Field label="Reason" name="reason" value={reason} onChange={setReason} required placeholder="professional client opt-up, assessment of 2026-11-02" />
        )}
      </ActionForm>
      {upgrades.map((r) => (
        <p key={r.id} role="note">
          Upgrade to {categoryLabel(r.effect?.investorCategory?.to)} requested by {r.requestedBy} (<Mono>{r.id}</Mono>): waits in{' '}
          <Link to={['approvals']}>Approvals</Link>.
        </p>
      ))}
    </Panel>
  );
}
