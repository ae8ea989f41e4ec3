import { registerEnumType } from 'type-graphql';

/**
 * The fund type that sets a share class's default NAV tolerance: the categories of CSSF Circular
 * 24/856 (NAV errors, in force since 2025-01-01). `overview.assetClass` stays the documented free
 * text shown to distributors; this is the category a tolerance can be derived from.
 */
export enum NavAssetClass {
  money_market = 'money_market',
  bond = 'bond',
  mixed = 'mixed',
  equity = 'equity',
  other = 'other',
}

registerEnumType(NavAssetClass, { name: 'NavAssetClass', description: 'The CSSF Circular 24/856 fund type that sets the default NAV tolerance' });

/**
 * CSSF 24/856's NAV-error tolerance thresholds, in basis points: money market 0.20%, bonds and
 * mixed 0.50%, equities and other assets 1%. A NAV that moves further than this from the previous
 * confirmed one needs a second principal (src/modules/nav/nav-confirmation.ts).
 */
export const NAV_TOLERANCE_BPS: Readonly<Record<NavAssetClass, number>> = {
  [NavAssetClass.money_market]: 20,
  [NavAssetClass.bond]: 50,
  [NavAssetClass.mixed]: 50,
  [NavAssetClass.equity]: 100,
  [NavAssetClass.other]: 100,
};

/** A class's tolerance: its own when set, otherwise its asset class's. */
export function navToleranceBps(sc: { navAssetClass: NavAssetClass; navToleranceOverrideBps?: number | null }): number {
  return sc.navToleranceOverrideBps ?? NAV_TOLERANCE_BPS[sc.navAssetClass];
}
