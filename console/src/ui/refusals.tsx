import { createContext, useContext } from 'react';
import { ApiError } from '../api/client';

/**
 * The refusals of the form around a field, by field name (the input's path, `details.isin`): each
 * refused field shows what is wrong under itself, with its label, and is marked invalid; the form
 * puts the focus on the first, so the correction starts at the right place. `required` holds the
 * paths the form's input type requires (from the schema, api/required-fields.ts).
 */
/** A refused field: what is wrong in words (shown after its label), or a whole message that names it itself. */
export type Refusal = { words: string; message?: string };
export const FormState = createContext<{ refused: ReadonlyMap<string, Refusal>; required: ReadonlySet<string> }>({ refused: new Map(), required: new Set() });

/** `ISIN is required`, `LEI: check digits do not match (ISO 17442)`: the words after the field's label. */
export function withLabel(label: string, words: string): string {
  return /^(is|must|are) /.test(words) ? `${label} ${words}` : `${label}: ${words}`;
}

export function useRefusal(name: string | undefined, id: string, hint: boolean, label: string) {
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
export function useRequired(name: string | undefined, explicit: boolean | undefined): boolean {
  const { required } = useContext(FormState);
  return explicit ?? (!!name && required.has(name));
}

/**
 * The fields a refusal names that the form has (`has`): every one of `extensions.fields`, or the
 * field a lone message begins with (`details.isin must …`, from an answer without fields).
 */
export function refusedFields(err: Error, has: (path: string) => boolean): ReadonlyMap<string, Refusal> {
  const listed = err instanceof ApiError ? err.fields : [];
  if (listed.length) return new Map(listed.map((f) => [f.path, { words: f.message }]));
  const field = /^([A-Za-z_][\w.]*)\b/.exec(err.message)?.[1];
  return field && has(field) ? new Map([[field, { words: err.message, message: err.message }]]) : new Map();
}
