import { Select } from '../ui/fields';
import { countryLabel } from './eligibility-draft';
import { COUNTRIES } from './share-class-fields';

/**
 * A set of ISO 3166-1 countries chosen from the list the gateway checks against
 * (src/common/iso-codes.ts, the codes of its alpha-2 → numeric table): each chosen one with its
 * name and a button that takes it out, and a list to add another.
 */
export function CountryChoice({ legend, name, value, onChange }: { legend: string; name: string; value: string[]; onChange: (codes: string[]) => void }) {
  const add = (code: string) => code && onChange([...new Set([...value, code])].sort());
  return (
    <fieldset className="group">
      <legend>{legend}</legend>
      <ul className="plain" aria-label={legend}>
        {value.map((code) => (
          <li key={code}>
            {countryLabel(code)}{' '}
            <button type="button" aria-label={`Remove ${code} from ${legend.toLowerCase()}`} onClick={() => onChange(value.filter((c) => c !== code))}>
              Remove
            </button>
          </li>
        ))}
        {!value.length && <li className="muted">None.</li>}
      </ul>
      <Select
        label={`Add to ${legend.toLowerCase()}`}
        name={name}
        value=""
        onChange={add}
        options={[['', 'Choose a country…'], ...COUNTRIES.filter((c) => !value.includes(c)).map((c): [string, string] => [c, countryLabel(c)])]}
      />
    </fieldset>
  );
}
