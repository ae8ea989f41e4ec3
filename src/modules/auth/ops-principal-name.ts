import { badRequest } from '../../common/errors';

/** Longest principal name (a person's handle, not a sentence). */
const MAX_LENGTH = 64;

/**
 * An ops principal's name as it is stored and compared: trimmed, NFKC (`ＯＰ１` is `OP1`) and
 * case-folded (`OP1` is `op1`, `STRASSE` and `straße` are `strasse`: upper then lower case folds
 * what lower case alone leaves, such as `ß`). Two spellings that fold alike are one principal,
 * and the database keeps it so (`ops_principal_name_normalised`, `ops_principal_name_unique`).
 * Control and format characters (a zero-width space that makes a name look like another) and
 * inner line breaks are refused, not folded away.
 */
export function opsPrincipalName(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.trim()) throw badRequest('name is required');
  const name = raw.trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  if (/\p{C}/u.test(name)) throw badRequest('name must not contain control or invisible characters');
  if ([...name].length > MAX_LENGTH) throw badRequest(`name must be at most ${MAX_LENGTH} characters`);
  return name;
}
