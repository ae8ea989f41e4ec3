import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorNote } from './parts';
import { may, useMe } from './me';

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
