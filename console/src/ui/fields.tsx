import { useId } from 'react';
import { useRefusal, useRequired } from './refusals';

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

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * A set of ISO weekdays (1 Monday … 7 Sunday) as a checkbox per day, ascending as the gateway
 * keeps them; a refusal of the field shows under the group.
 */
export function Weekdays(props: { legend: string; name: string; value: number[]; onChange: (days: number[]) => void }) {
  const id = useId();
  const refusal = useRefusal(props.name, id, false, props.legend);
  const toggle = (day: number, on: boolean) => props.onChange([...props.value.filter((d) => d !== day), ...(on ? [day] : [])].sort((a, b) => a - b));
  return (
    <fieldset className="group weekdays" id={id} aria-invalid={refusal.invalid || undefined} aria-describedby={refusal.describedBy}>
      <legend>{props.legend}</legend>
      {WEEKDAYS.map((label, i) => (
        <label key={label} className="check">
          <input type="checkbox" name={`${props.name}.${i + 1}`} checked={props.value.includes(i + 1)} onChange={(e) => toggle(i + 1, e.target.checked)} />{' '}
          {label}
        </label>
      ))}
      {refusal.note}
    </fieldset>
  );
}
