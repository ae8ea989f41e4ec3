import { useState } from 'react';
import { request } from '../api/client';
import {
  CreateShareClassDocument,
  EligibilityRuleCodesDocument,
  FundChoicesDocument,
  ShareClassFormDocument,
  UpdateShareClassDocument,
} from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select, Weekdays } from '../ui/fields';
import { ErrorNote, Loading, Mono, Page } from '../ui/parts';
import { href, Link } from '../ui/router';
import { useQuery } from '../ui/use-query';
import {
  choices,
  COUNTRIES,
  CURRENCIES,
  defaultToleranceOf,
  GROUPS,
  inputOf,
  NAV_ASSET_CLASSES,
  NEW,
  STATUSES,
  valuesOf,
  weekdaysOf,
  type Kind,
  type Values,
} from './share-class-fields';

/*
 * Every documented field of a share class, grouped as the description groups them. Each input is
 * named by the field's path (`details.isin`), the name the gateway's messages use, so a refusal
 * marks every field it is about (ActionForm); the required ones are marked from the schema's
 * CreateShareClassInput. Every rule (ranges, formats, required text, identifiers' check digits) is
 * the gateway's, with its message.
 */
function Fields({ values, set }: { values: Values; set: (path: string, v: string) => void }) {
  const assetClass = values.navAssetClass ?? 'other';
  // The codes of the rule sets there are: a class names one of them, not a word that restricts nothing.
  const ruleSets = useQuery(EligibilityRuleCodesDocument, {}, 'rule-set-codes');
  const listOf = (kind: Kind) =>
    kind === 'currency' ? CURRENCIES : kind === 'country' ? COUNTRIES : (ruleSets.data?.eligibilityRuleSets.map((r) => r.code) ?? []);
  return (
    <>
      {GROUPS.map((g) => (
        <fieldset key={g.legend} className="group">
          <legend>{g.legend}</legend>
          <div className="grid-fields">
            {g.fields.map(([path, label, kind, hint]) =>
              kind === 'currency' || kind === 'country' || kind === 'ruleSet' ? (
                <Select
                  key={path}
                  label={label}
                  name={path}
                  value={values[path] ?? ''}
                  onChange={(v) => set(path, v)}
                  options={choices(listOf(kind), values[path] ?? '')}
                />
              ) : (
                <Field
                  key={path}
                  label={label}
                  name={path}
                  value={values[path] ?? ''}
                  onChange={(v) => set(path, v)}
                  type={kind === 'text' ? 'text' : 'number'}
                  step={kind === 'int' ? '1' : kind === 'number' ? 'any' : undefined}
                  hint={hint}
                />
              ),
            )}
          </div>
        </fieldset>
      ))}
      <fieldset className="group">
        <legend>NAV control</legend>
        <div className="grid-fields">
          <Select
            label="NAV asset class (CSSF 24/856)"
            name="navAssetClass"
            value={assetClass}
            onChange={(v) => set('navAssetClass', v)}
            options={NAV_ASSET_CLASSES.map(([v, l, bps]): [string, string] => [v, `${l} (tolerance ${bps / 100}%)`])}
          />
          <Field
            label="NAV tolerance (bps)"
            name="navToleranceBps"
            type="number"
            step="1"
            value={values.navToleranceBps ?? ''}
            onChange={(v) => set('navToleranceBps', v)}
            hint={`Empty: the asset class's, ${defaultToleranceOf(assetClass)} bps. A NAV moving further waits for a second person.`}
          />
        </div>
      </fieldset>
      <Weekdays
        legend="Dealing week"
        name="dealingWeekdays"
        value={weekdaysOf(values.dealingWeekdays)}
        onChange={(days) => set('dealingWeekdays', days.join(','))}
      />
    </>
  );
}

/** `#/share-classes/new[/FN…]`: a share class of a fund, every documented field. */
export function NewShareClass({ fundId }: { fundId?: string }) {
  const funds = useQuery(FundChoicesDocument, {}, 'funds');
  const [fund, setFund] = useState(fundId ?? '');
  const [values, setValues] = useState<Values>(NEW);
  const set = (path: string, v: string) => setValues((old) => ({ ...old, [path]: v }));
  return (
    <Page title="New share class" actions={<Link to={['share-classes']}>← Share classes</Link>}>
      <ErrorNote error={funds.error} />
      {!funds.data ? (
        !funds.error && <Loading what="funds" />
      ) : (
        <ActionForm
          operation="createShareClass"
          label="Create share class"
          input="CreateShareClassInput"
          submit={() => request(CreateShareClassDocument, { input: { fundId: fund, ...inputOf(values) } })}
          onDone={(r) => (window.location.hash = href('share-classes', (r as { createShareClass: { id: string } }).createShareClass.id))}
        >
          <fieldset className="group">
            <legend>Fund</legend>
            <Select
              label="Fund"
              name="fundId"
              value={fund}
              onChange={setFund}
              options={[['', 'Choose…'], ...funds.data.funds.items.map((f): [string, string] => [f.id, `${f.id} · ${f.name} (${f.issuer.name})`])]}
            />
            {!funds.data.funds.items.length && (
              <p className="muted">
                No fund yet: <Link to={['issuers']}>create an issuer and a fund</Link> first.
              </p>
            )}
          </fieldset>
          <Fields values={values} set={set} />
        </ActionForm>
      )}
    </Page>
  );
}

/** `#/share-classes/SC…/edit`: the same fields; sub-objects are replaced whole, as the API does. */
export function EditShareClass({ id }: { id: string }) {
  const q = useQuery(ShareClassFormDocument, { id }, id);
  const [values, setValues] = useState<Values | null>(null);
  if (!q.data) return <Page title={`Edit ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the share class" />}</Page>;
  const shown = values ?? valuesOf(q.data.shareClass);
  const set = (path: string, v: string) => setValues({ ...shown, [path]: v });
  return (
    <Page
      title={
        <>
          Edit {q.data.shareClass.meta.name} <Mono>{id}</Mono>
        </>
      }
      actions={<Link to={['share-classes', id]}>← Back to the share class</Link>}
    >
      <ActionForm
        operation="updateShareClass"
        label="Save share class"
        input="CreateShareClassInput"
        submit={() => request(UpdateShareClassDocument, { id, input: { status: shown.status, ...inputOf(shown) } })}
        onDone={() => (window.location.hash = href('share-classes', id))}
      >
        <fieldset className="group">
          <legend>Status</legend>
          <Select label="Status" name="status" value={shown.status} onChange={(v) => set('status', v)} options={choices(STATUSES, shown.status)} />
          <p className="muted">active takes orders; suspended and closed refuse new ones.</p>
        </fieldset>
        <Fields values={shown} set={set} />
      </ActionForm>
    </Page>
  );
}
