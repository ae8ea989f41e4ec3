/**
 * CSV as RFC 4180 has it: comma-separated, CRLF line ends, a field quoted when it holds a comma,
 * quote or line break. Decimals arrive as strings and are written as they are (never through a
 * float); null and undefined are empty fields.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

function field(v: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the rows are the register's own scalars (text, numbers, decimals as strings, dates)
  const s = v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
