import { createContext, useContext, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote, Panel } from './parts';
import { href } from './router';

/*
 * The console's forms: every one calls the gateway and leaves every rule to it. A refusal is
 * shown in the gateway's words, beside the field it names, and nothing typed is lost.
 */

/**
 * A refusal of the form around a field, when the gateway's message names that field
 * (`details.isin must be an ISIN …`): the field shows the message under itself and is marked
 * invalid, and the form puts the focus there, so the correction starts at the right place.
 */
const Refused = createContext<{ field: string; message: string } | null>(null);

function useRefusal(name: string | undefined, id: string, hint: boolean) {
  const r = useContext(Refused);
  const invalid = !!name && r?.field === name;
  const describedBy = [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const note = invalid ? (
    <small id={`${id}-error`} className="field-error">
      {r!.message}
    </small>
  ) : null;
  return { invalid, describedBy, note };
}

export function Field(props: { label: string; value: string; onChange: (v: string) => void; required?: boolean; placeholder?: string; type?: string; hint?: string; autoFocus?: boolean; name?: string; step?: string; list?: string }) {
  const id = useId();
  const refusal = useRefusal(props.name, id, !!props.hint);
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
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
  const refusal = useRefusal(props.name, id, false);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)} aria-invalid={refusal.invalid || undefined} aria-describedby={refusal.describedBy}>
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
 * A form whose submission calls the gateway: the button waits, a refusal is shown with the
 * gateway's own message and what was typed stays in the fields, so it can be corrected.
 */
export function ActionForm({ submit, label, children, onDone, className, busyLabel, name }: { submit: () => Promise<unknown>; label: string; children: ReactNode; onDone?: (r: unknown) => void; className?: string; busyLabel?: string; /** The form's accessible name, when several share a button label. */ name?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [refused, setRefused] = useState<{ field: string; message: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refused) form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(refused.field)}"]`)?.focus();
  }, [refused]);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRefused(null);
    try {
      const r = await submit();
      onDone?.(r);
    } catch (err) {
      const message = (err as Error).message;
      setError(err as Error);
      // The field the message begins with, when the form has one of that name.
      const field = /^([A-Za-z_][\w.]*)\b/.exec(message)?.[1];
      if (field && form.current?.querySelector(`[name="${CSS.escape(field)}"]`)) setRefused({ field, message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form ref={form} className={`action-form ${className ?? ''}`} onSubmit={onSubmit} aria-label={name ?? label}>
      <Refused.Provider value={refused}>
        <div className="form-fields">{children}</div>
      </Refused.Provider>
      <button type="submit" disabled={busy}>
        {busy ? (busyLabel ?? 'Working…') : label}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * An action that changes the book: a button opens a modal dialog that says what will happen,
 * takes its inputs, and only acts on an explicit confirmation. A refusal stays in the dialog
 * with the gateway's message and the inputs as typed.
 */
export function ConfirmAction(props: {
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
  return (
    <>
      <button type="button" className={props.danger ? 'danger' : props.quiet ? undefined : 'primary'} onClick={open}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <form onSubmit={confirm}>
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
export function NewRecord({ title, label, submit, section, children }: { title: string; label: string; submit: () => Promise<unknown>; section: string; children: ReactNode }) {
  return (
    <Panel title={title}>
      <ActionForm
        label={label}
        className="inline"
        submit={async () => Object.values((await submit()) as Record<string, { id: string }>)[0]!.id}
        onDone={(id) => (window.location.hash = href(section, id as string))}
      >
        {children}
      </ActionForm>
    </Panel>
  );
}
