import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { requiredPaths } from '../api/required-fields';
import { count } from './format';
import { ErrorNote, Panel } from './parts';
import { FormState, refusedFields, withLabel, type Refusal } from './refusals';
import { href } from './router';
import { may, useMe } from './me';

/*
 * The console's forms: every one calls the gateway and leaves every rule to it. A refusal is
 * shown in the gateway's words, beside the field it names, and nothing typed is lost.
 */

/**
 * A form whose submission calls the gateway: the button waits, and a refusal marks every field it
 * names (`extensions.fields`, or the field a single message begins with) beside the field, lists
 * them by label under the button, and keeps what was typed, so one correction answers them all.
 * `input` names the GraphQL input type the form fills: its required fields are marked before the
 * first submission. The browser's own checks are off (`noValidate`): they stop at the first empty
 * field, one at a time, and the gateway's rules are the ones that count.
 */
export function ActionForm({
  submit,
  label,
  children,
  onDone,
  className,
  busyLabel,
  name,
  input,
  operation,
  blocked,
}: {
  /** The root field it calls: the form shows only to a principal whose roles allow it. */ operation?: string;
  /** What the form already knows refuses the submission (said among its fields): the button waits. */ blocked?: boolean;
  submit: () => Promise<unknown>;
  label: string;
  children: ReactNode;
  onDone?: (r: unknown) => void;
  className?: string;
  busyLabel?: string;
  /** The form's accessible name, when several share a button label. */ name?: string;
  /** The GraphQL input type whose required fields are marked. */ input?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [refused, setRefused] = useState<ReadonlyMap<string, Refusal>>(new Map());
  const required = useMemo(() => (input ? requiredPaths(input) : new Set<string>()), [input]);
  const form = useRef<HTMLFormElement>(null);
  const fieldNamed = (path: string) => form.current?.querySelector<HTMLInputElement>(`[name="${CSS.escape(path)}"]`) ?? null;
  useEffect(() => {
    const first = refused.keys().next();
    if (!first.done) fieldNamed(first.value)?.focus();
  }, [refused]);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRefused(new Map());
    try {
      const r = await submit();
      onDone?.(r);
    } catch (err) {
      setError(err as Error);
      setRefused(refusedFields(err as Error, (path) => !!fieldNamed(path)));
    } finally {
      setBusy(false);
    }
  };
  const labelOf = (path: string) => (fieldNamed(path)?.labels?.[0]?.textContent ?? path).replace(/\s*\*$/, '');
  const me = useMe();
  if (operation && !may(me, operation)) return null;
  return (
    <form ref={form} className={`action-form ${className ?? ''}`} onSubmit={(e) => void onSubmit(e)} aria-label={name ?? label} noValidate>
      <FormState.Provider value={{ refused, required }}>
        <div className="form-fields">{children}</div>
      </FormState.Provider>
      <button type="submit" disabled={busy || blocked}>
        {busy ? (busyLabel ?? 'Working…') : label}
      </button>
      {refused.size > 1 ? (
        <div className="error" role="alert">
          <span className="message">Not saved: {count(refused.size, 'field')} to correct</span>
          <ul className="refusals">
            {[...refused].map(([path, r]) => (
              <li key={path}>{r.message ?? withLabel(labelOf(path), r.words)}</li>
            ))}
          </ul>
        </div>
      ) : refused.size === 1 && fieldNamed([...refused.keys()][0]) ? null /* said once, beside its field */ : (
        <ErrorNote error={error} />
      )}
    </form>
  );
}

/** The create half of a list screen: a form whose new record's page opens when the gateway made it. */
export function NewRecord({
  title,
  label,
  submit,
  section,
  children,
  input,
  operation,
}: {
  operation?: string;
  title: string;
  label: string;
  submit: () => Promise<unknown>;
  section: string;
  children: ReactNode;
  input?: string;
}) {
  const me = useMe();
  if (operation && !may(me, operation)) return null;
  return (
    <Panel title={title}>
      <ActionForm
        operation={operation}
        label={label}
        input={input}
        className="inline"
        submit={async () => Object.values((await submit()) as Record<string, { id: string }>)[0].id}
        onDone={(id) => (window.location.hash = href(section, id as string))}
      >
        {children}
      </ActionForm>
    </Panel>
  );
}
