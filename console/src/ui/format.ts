/** Display helpers. Money and quantities arrive as decimal strings and are shown as they are, grouped, never through a float. */
export function decimal(value: string | null | undefined, maxFraction = 8): string {
  if (value == null) return '—';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return value;
  const int = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = (m[3] ?? '').replace(/0+$/, '').slice(0, maxFraction);
  return `${m[1]}${int}${frac ? `.${frac}` : ''}`;
}

export function money(value: string | null | undefined, currency: string | null | undefined): string {
  return value == null ? '—' : `${decimal(value, 4)} ${currency ?? ''}`.trim();
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: '2-digit' });

export const time = (ms: number | null | undefined) => (ms == null ? '—' : dateTime.format(new Date(ms)));
export const day = (ms: number | null | undefined) => (ms == null ? '—' : dateOnly.format(new Date(ms)));
/**
 * `1 day`, `2 days`, `1.5 tokens`: the word in the plural unless the count is exactly one (a
 * decimal string is shown as it came).
 */
export const count = (n: number | string, one: string, many = `${one}s`) => `${n} ${Math.abs(Number(n)) === 1 ? one : many}`;

/**
 * Who did it, as a person reads it: surface R stamps a distributor's request `Network` when the
 * caller sent no `x-actor`, which names no one: it reads as the distributor's name.
 */
export const actor = (by: string, distributorName: string) => (by === 'Network' ? `${distributorName} (over the distributor API, no x-actor sent)` : by);

export const bps = (n: number) => `${(n / 100).toFixed(2)} %`;

/** A decimal the user typed: digits with an optional fraction, nothing else. */
export const isDecimal = (s: string) => /^\d+(\.\d+)?$/.test(s.trim());

/** What each chain transaction purpose does, in words (`wallet.*`, `settlement.*`, `deploy.*`). */
const PURPOSES: Record<string, string> = {
  'wallet.identity': 'identity (ONCHAINID) of the wallet',
  'wallet.claim': 'KYC claim on the identity',
  'wallet.register': 'registration in the identity registry',
  'wallet.freeze': 'freeze of the wallet',
  'wallet.unfreeze': 'unfreeze of the wallet',
  'wallet.delete': 'removal from the identity registry',
  'wallet.recover': 'recovery of the tokens to the new wallet',
  'wallet.recoveryKey': 'recovery key on the identity',
  'settlement.batchMint': 'mint of a batch of orders',
  'settlement.batchBurn': 'burn of a batch of orders',
  'deploy.mint': 'mint of the demo holding',
};

/**
 * A chain transaction named by what it does: a deployment's step (`identity registry proxy`,
 * `token proxy`), a mint or burn with its order, a wallet's registration; its id stays beside it.
 */
export function txName(tx: { purpose: string; step?: string | null; orderId?: string | null }): string {
  if (tx.purpose === 'settlement.mint' || tx.purpose === 'settlement.burn')
    return `${tx.purpose === 'settlement.mint' ? 'Mint' : 'Burn'}${tx.orderId ? ` of ${tx.orderId}` : ''}`;
  const words = tx.step ? `${tx.purpose === 'deploy' ? 'deployment: ' : ''}${tx.step}` : (PURPOSES[tx.purpose] ?? tx.purpose);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
