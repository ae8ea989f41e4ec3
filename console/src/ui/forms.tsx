import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { requiredPaths } from '../api/required-fields';
import { ErrorNote, Panel } from './parts';
import { href } from './router';
import { may, useMe } from './me';

/*
 * The console's forms: every one calls the gateway and leaves every rule to it. A refusal is
 * shown in the gateway's words, beside the field it names, and nothing typed is lost.
 */

/**
 * The refusals of the form around a field, by field name (the input's path, `details.isin`): each
 * refused field shows what is wrong under itself, with its label, and is marked invalid; the form
 * puts the focus on the first, so the correction starts at the right place. `required` holds the
 * paths the form's input type requires (from the schema, api/required-fields.ts).
 */
/** A refused field: what is wrong in words (shown after its label), or a whole message that names it itself. */
type Refusal = { words: string; message?: string };
const FormState = createContext<{ refused: ReadonlyMap<string, Refusal>; required: ReadonlySet<string> }>({ refused: new Map(), required: new Set() });

/** `ISIN is required`, `LEI: check digits do not match (ISO 17442)`: the words after the field's label. */
export function withLabel(label: string, words: string): string {
  return /^(is|must|are) /.test(words) ? `${label} ${words}` : `${label}: ${words}`;
}

function useRefusal(name: string | undefined, id: string, hint: boolean, label: string) {
  const { refused } = useContext(FormState);
  const refusal = name ? refused.get(name) : undefined;
  const invalid = refusal !== undefined;
  const describedBy = [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const note = invalid ? (
    <small id={`${id}-error`} className="field-error">
      {refusal.message ?? withLabel(label, refusal.words)}
    </small>
  ) : null;
  return { invalid, describedBy, note };
}

/** Whether a field is required: as its form says, else as the form's input type in the schema says. */
function useRequired(name: string | undefined, explicit: boolean | undefined): boolean {
  const { required } = useContext(FormState);
  return explicit ?? (!!name && required.has(name));
}

/**
 * A field's label, and its required mark (` *`, hidden from assistive technology, which hears
 * `aria-required`) beside it rather than inside it: the label stays the field's name.
 */
function RequiredLabel({ id, label, required }: { id: string; label: string; required: boolean }) {
  return (
    <span className="field-label">
      <label htmlFor={id}>{label}</label>
      {required && (
        <span aria-hidden="true" className="required-mark">
          *
        </span>
      )}
    </span>
  );
}

export function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  required?: boolean;
  placeholder?: string;
  type?: string;
  hint?: string;
  autoFocus?: boolean;
  name?: string;
  step?: string;
  list?: string;
}) {
  const id = useId();
  const refusal = useRefusal(props.name, id, !!props.hint, props.label);
  const required = useRequired(props.name, props.required);
  return (
    <div className="field">
      <RequiredLabel id={id} label={props.label} required={required} />
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        aria-required={required || undefined}
        placeholder={props.placeholder}
        autoFocus={props.autoFocus}
        autoComplete="off"
        step={props.step}
        list={props.list}
        aria-invalid={refusal.invalid || undefined}
        aria-describedby={refusal.describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && (
        <small id={`${id}-hint`} className="muted">
          {props.hint}
        </small>
      )}
      {refusal.note}
    </div>
  );
}

export function Select(props: { label: string; value: string; onChange: (v: string) => void; options: [string, string][]; name?: string }) {
  const id = useId();
  const refusal = useRefusal(props.name, id, false, props.label);
  const required = useRequired(props.name, undefined);
  return (
    <div className="field">
      <RequiredLabel id={id} label={props.label} required={required} />
      <select
        id={id}
        name={props.name}
        value={props.value}
        aria-required={required || undefined}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={refusal.invalid || undefined}
        aria-describedby={refusal.describedBy}
      >
        {props.options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      {refusal.note}
    </div>
  );
}

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
}: {
  /** The root field it calls: the form shows only to a principal whose roles allow it. */ operation?: string;
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
      <button type="submit" disabled={busy}>
        {busy ? (busyLabel ?? 'Working…') : label}
      </button>
      {refused.size > 1 ? (
        <div className="error" role="alert">
          <span className="message">Not saved: {refused.size} fields to correct</span>
          <ul className="refusals">
            {[...refused].map(([path, r]) => (
              <li key={path}>{r.message ?? withLabel(labelOf(path), r.words)}</li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorNote error={error} />
      )}
    </form>
  );
}

/**
 * The fields a refusal names that the form has (`has`): every one of `extensions.fields`, or the
 * field a lone message begins with (`details.isin must …`, from an answer without fields).
 */
function refusedFields(err: Error, has: (path: string) => boolean): ReadonlyMap<string, Refusal> {
  const listed = err instanceof ApiError ? err.fields : [];
  if (listed.length) return new Map(listed.map((f) => [f.path, { words: f.message }]));
  const field = /^([A-Za-z_][\w.]*)\b/.exec(err.message)?.[1];
  return field && has(field) ? new Map([[field, { words: err.message, message: err.message }]]) : new Map();
}

/**
 * An action that changes the book: a button opens a modal dialog that says what will happen,
 * takes its inputs, and only acts on an explicit confirmation. A refusal stays in the dialog
 * with the gateway's message and the inputs as typed.
 */
export function ConfirmAction(props: {
  /** The root field it calls: the button shows only to a principal whose roles allow it. */
  operation?: string;
  label: string;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  /** A secondary action: a plain button rather than the primary colour. */
  quiet?: boolean;
  fields?: (autoFocus: boolean) => ReactNode;
  run: () => Promise<unknown>;
  onDone: (r: unknown) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const titleId = useId();
  const open = () => {
    setError(null);
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();
  const me = useMe();
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await props.run();
      close();
      props.onDone(r);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  if (props.operation && !may(me, props.operation)) return null;
  return (
    <>
      <button type="button" className={props.danger ? 'danger' : props.quiet ? undefined : 'primary'} onClick={open}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <form onSubmit={(e) => void confirm(e)}>
          <h2 id={titleId}>{props.title}</h2>
          <div className="dialog-text">{props.description}</div>
          {props.fields && <div className="form-fields">{props.fields(true)}</div>}
          <ErrorNote error={error} />
          <div className="dialog-buttons">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={busy}>
              {busy ? 'Working…' : (props.confirmLabel ?? props.label)}
            </button>
          </div>
        </form>
      </dialog>
    </>
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
