import { useState } from 'react';
import { request } from '../api/client';
import {
  EligibilityRequestsWaitingDocument,
  EligibilityRuleSetDocument,
  EligibilityRuleSetsDocument,
  IneligibleHoldersPreviewDocument,
  RequestEligibilityRulesDocument,
} from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { time } from '../ui/format';
import { may, useMe } from '../ui/me';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, RecordTable } from '../ui/parts';
import { href, Link } from '../ui/router';
import { useApprovalsLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { CountryChoice } from './CountryChoice';
import { categoryLabel, CATEGORIES, draftOf, EMPTY, inputOf, RULES, type Draft } from './eligibility-draft';

/*
 * Who may hold a share class (docs/compliance.md): the rule sets share classes name by their
 * `eligibleInvestors` code, and the editor of one. A change is four-eyes: the editor shows the
 * holders it would leave ineligible first (ineligibleHoldersPreview, the list the request binds),
 * then asks (requestEligibilityRules), and another principal approves it in Approvals.
 */

/** `#/eligibility`: every rule set, and a new one by its code. */
export function EligibilityRuleSets() {
  const q = useQuery(EligibilityRuleSetsDocument, {}, 'rule-sets');
  const me = useMe();
  const [code, setCode] = useState('');
  return (
    <Page title="Eligibility rule sets">
      <Panel title="Rule sets">
        <div className="table-wrap">
          <RecordTable
            label="Rule sets"
            what="rule sets"
            records={q.data?.eligibilityRuleSets}
            error={q.error}
            rowKey={(r) => r.code}
            empty="No rule set yet: a share class naming a code without one admits every investor whose KYC is valid."
            columns={[
              { header: 'Code', cell: (r) => <Link to={['eligibility', r.code]}>{r.code}</Link> },
              ...RULES.map(([header, words]) => ({ header, cell: words })),
              { header: 'Changed', cell: (r) => `${time(r.updatedAt)} by ${r.updatedBy}` },
            ]}
          />
        </div>
      </Panel>
      {may(me, 'requestEligibilityRules') && (
        <Panel title="New rule set">
          <ActionForm
            label="Open the editor"
            className="inline"
            submit={async () => {
              if (!/^[A-Za-z0-9_-]{1,32}$/.test(code.trim())) throw new Error('The code must be 1 to 32 letters, digits, _ or -.');
              return code.trim();
            }}
            onDone={(c) => (window.location.hash = href('eligibility', c as string))}
          >
            <Field
              label="Code"
              name="code"
              value={code}
              onChange={setCode}
              required
              placeholder="PROF"
              hint="The code share classes name as eligible investors"
            />
          </ActionForm>
        </Panel>
      )}
    </Page>
  );
}

/** `#/eligibility/CODE`: the rules in force, the holders they leave ineligible, and the editor (a code without a rule set starts empty). */
export function EligibilityRuleSetScreen({ code }: { code: string }) {
  const q = useQuery(EligibilityRuleSetDocument, { code }, code);
  const absent = q.error?.code === 'NOT_FOUND';
  const rules = q.data?.eligibilityRuleSet ?? null;
  return (
    <Page
      title={
        <>
          Eligibility rule set <Mono>{code}</Mono>
        </>
      }
      actions={<Link to={['eligibility']}>← Rule sets</Link>}
    >
      {!q.data && !absent ? (
        q.error ? (
          <ErrorNote error={q.error} />
        ) : (
          <Loading what="the rule set" />
        )
      ) : (
        <>
          <div className="columns">
            <Panel title="Rules in force">
              {rules ? (
                <Facts
                  items={[
                    ...RULES.map(([label, words]): [string, string] => [label, words(rules)]),
                    ['Changed', `${time(rules.updatedAt)} by ${rules.updatedBy}`],
                  ]}
                />
              ) : (
                <p className="muted">No rule set has this code yet: a share class naming it admits every investor whose KYC is valid.</p>
              )}
            </Panel>
            <Panel title="Holders ineligible now">
              <HolderList holders={q.data?.ineligibleHolders ?? []} none="Every holder meets the rules in force." />
              <p className="muted">They keep their tokens and may only redeem.</p>
            </Panel>
          </div>
          <RulesEditor code={code} start={rules ? draftOf(rules) : EMPTY} key={rules?.updatedAt ?? 0} />
        </>
      )}
    </Page>
  );
}

function HolderList({ holders, none }: { holders: string[]; none: string }) {
  return (
    <ul className="plain" aria-label="Ineligible holders">
      {holders.map((h) => (
        <li key={h}>{h}</li>
      ))}
      {!holders.length && <li className="muted">{none}</li>}
    </ul>
  );
}

/** The change: every rule from its closed set, the holders it would leave ineligible, then the four-eyes request. */
function RulesEditor({ code, start }: { code: string; start: Draft }) {
  const me = useMe();
  const [draft, setDraft] = useState<Draft>(start);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<string[] | null>(null);
  const waiting = useQuery(EligibilityRequestsWaitingDocument, {}, `waiting-${code}`);
  useApprovalsLive(() => void waiting.reload());
  const mine = (waiting.data?.approvalRequests ?? []).filter((r) => r.effect?.eligibilityRules?.code === code);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => (setDraft((d) => ({ ...d, [k]: v })), setPreview(null));
  const toggle = (c: (typeof CATEGORIES)[number], on: boolean) =>
    set('allowedCategories', on ? [...draft.allowedCategories, c] : draft.allowedCategories.filter((x) => x !== c));
  const requests = (
    <Panel title="Changes waiting for approval">
      <RecordTable
        label="Changes waiting for approval"
        what="requests"
        records={mine}
        error={waiting.error}
        rowKey={(r) => r.id}
        empty="No change of this rule set waits."
        columns={[
          { header: 'Request', cell: (r) => <Mono>{r.id}</Mono> },
          { header: 'Requested', cell: (r) => `${time(r.requestedAt)} by ${r.requestedBy}` },
          { header: 'Reason', cell: (r) => r.reason },
          { header: 'Leaves ineligible', cell: (r) => r.effect?.eligibilityRules?.ineligibleHolders.join('; ') || 'nobody' },
        ]}
      />
      <p className="muted">
        Another principal with the approver role approves it in <Link to={['approvals']}>Approvals</Link>; the rules apply then.
      </p>
    </Panel>
  );
  if (!may(me, 'requestEligibilityRules'))
    return (
      <>
        {requests}
        <p className="muted">Changing a rule set is an operator's request, approved by another principal.</p>
      </>
    );
  const scope = (label: string, name: string, value: Draft['countryScope'], onChange: (v: Draft['countryScope']) => void, any: string, listed: string) => (
    <Select
      label={label}
      name={name}
      value={value}
      onChange={(v) => onChange(v as Draft['countryScope'])}
      options={[
        ['any', any],
        ['listed', listed],
      ]}
    />
  );
  return (
    <>
      <Panel title="Change the rules">
        <ActionForm
          label="Show who it leaves ineligible"
          name="Preview the rule set"
          input="EligibilityRulesInput"
          submit={async () => (await request(IneligibleHoldersPreviewDocument, { input: inputOf(code, draft, reason) })).ineligibleHoldersPreview}
          onDone={(h) => setPreview(h as string[])}
        >
          <div className="grid-fields">
            {scope(
              'Investor countries',
              'countryScope',
              draft.countryScope,
              (v) => set('countryScope', v),
              'Any country not blocked',
              'Only the allowed countries',
            )}
            {scope('Investor categories', 'categoryScope', draft.categoryScope, (v) => set('categoryScope', v), 'Any category', 'Only the checked categories')}
          </div>
          {draft.countryScope === 'listed' && (
            <CountryChoice legend="Allowed countries" name="allowedCountries" value={draft.allowedCountries} onChange={(v) => set('allowedCountries', v)} />
          )}
          <CountryChoice legend="Blocked countries" name="blockedCountries" value={draft.blockedCountries} onChange={(v) => set('blockedCountries', v)} />
          {draft.categoryScope === 'listed' && (
            <fieldset className="group">
              <legend>Allowed categories</legend>
              {CATEGORIES.map((c) => (
                <label key={c} className="check">
                  <input
                    type="checkbox"
                    name={`allowedCategories.${c}`}
                    checked={draft.allowedCategories.includes(c)}
                    onChange={(e) => toggle(c, e.target.checked)}
                  />{' '}
                  {categoryLabel(c)}
                </label>
              ))}
            </fieldset>
          )}
          <div className="grid-fields">
            <Field
              label="Holders at most"
              name="maxHolders"
              type="number"
              step="1"
              value={draft.maxHolders}
              onChange={(v) => set('maxHolders', v)}
              hint="Empty: no limit"
            />
            <Field
              label="Holding per investor at most (tokens)"
              name="maxHoldingPerInvestor"
              value={draft.maxHoldingPerInvestor}
              onChange={(v) => set('maxHoldingPerInvestor', v)}
              hint="Empty: no limit"
            />
            <Field label="Supply cap (tokens)" name="supplyCap" value={draft.supplyCap} onChange={(v) => set('supplyCap', v)} hint="Empty: no cap" />
            <Field label="Reason" name="reason" value={reason} onChange={setReason} required placeholder="prospectus of 2026-12: no US persons" />
          </div>
        </ActionForm>
        {preview && (
          <section aria-label="Holders the change leaves ineligible">
            <h3>Holders the change leaves ineligible</h3>
            <HolderList holders={preview} none="Nobody: every holder meets the new rules." />
            <ActionForm
              operation="requestEligibilityRules"
              label="Request the change"
              name="Request the rule set"
              submit={() => request(RequestEligibilityRulesDocument, { input: inputOf(code, draft, reason) })}
              onDone={() => (setPreview(null), setReason(''), void waiting.reload())}
            >
              <p className="muted">They keep their tokens and may only redeem. The change waits for another principal.</p>
            </ActionForm>
          </section>
        )}
      </Panel>
      {requests}
    </>
  );
}
