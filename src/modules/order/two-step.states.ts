/**
 * States of an R-two-step subscription (spec/api-description.md, "Order, R-two-step").
 *
 *   (none) ──subscribe──► created ──push (accepted upstream)──► submitted
 *                           │                                      │
 *                           └──cancel──► cancelled                 ├─supply: accepted ──► settled | failed
 *                                                                  └─supply: rejected
 *
 * `created`, `submitted` and `cancelled` are the description's. The supply-side outcomes after
 * `submitted` are not named there; these names match the events of the description
 * (`order.accepted`, `order.rejected`, `token.transfer_completed`, `token.transfer_failed`).
 */
export const TWO_STEP_STATUSES = ['created', 'submitted', 'cancelled', 'accepted', 'rejected', 'settled', 'failed'] as const;
export type TwoStepStatus = (typeof TWO_STEP_STATUSES)[number];

export const SUPPLY_OUTCOMES = ['accepted', 'rejected', 'settled', 'failed'] as const;
export type SupplyOutcomeName = (typeof SUPPLY_OUTCOMES)[number];
