/**
 * Saves one of the gateway's CSV exports (`/ops/….csv`). The route reads the session cookie only
 * from the console's own origin, which a fetch shows (`Sec-Fetch-Site: same-origin`): the page
 * fetches it and saves it through a Blob link. Resolves to null, or to what went wrong in words.
 */
export async function downloadCsv(path: string, fileName: string): Promise<string | null> {
  const res = await fetch(path);
  if (!res.ok) return `The gateway answered HTTP ${res.status}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return null;
}
