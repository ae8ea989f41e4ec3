import type { TestGateway } from './gateway';

/*
 * Four eyes in a test: one ops principal (`test-ops`, admin) requests, a second (`test-approver`,
 * approver) approves. A suite's test reads the approval's answer where it read the old mutation's.
 */

const APPROVE = `mutation($id: ID!, $reason: String) { approveRequest(id: $id, reason: $reason) { id status result failure requestedBy decidedBy } }`;

/** A token of the second principal (approver), issued once per gateway reset. */
export function approverToken(gw: TestGateway): Promise<string> {
  return gw.opsTokenAs('test-approver', ['approver']);
}

/**
 * A token of a second operator (`test-checker`): the checker of a chain of steps that ends in
 * tokens moving (segregation of duties, src/access/duties.ts), where `test-ops` is the maker.
 */
export function checkerToken(gw: TestGateway): Promise<string> {
  return gw.opsTokenAs(CHECKER, ['operator']);
}

/** The checker's name, and its principal as records hold it. */
export const CHECKER = 'test-checker';
export const CHECKER_PRINCIPAL = `ops:${CHECKER}`;

/**
 * Runs `requestMutation` (which must select `id` of the request it returns under `field`) as
 * `test-ops`, then approves it as `test-approver`. Answers both responses; the first failing one
 * stops there.
 */
export async function requestedAndApproved(
  gw: TestGateway,
  requestMutation: string,
  field: string,
  variables: Record<string, unknown>,
  headers?: Record<string, string>,
) {
  const requested = await gw.graphql(requestMutation, variables, { token: await gw.opsToken(), headers });
  if (requested.body.errors?.length) return { requested, approved: null };
  const id = requested.body.data![field].id as string;
  const approved = await gw.graphql(APPROVE, { id, reason: 'checked' }, { token: await approverToken(gw), headers });
  return { requested, approved };
}

/** The approved call's answer, or its errors (message, code) as the old direct mutation answered them. */
export async function approvedCall(
  gw: TestGateway,
  requestMutation: string,
  field: string,
  variables: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<{ result?: any; errors?: any[] }> {
  const { requested, approved } = await requestedAndApproved(gw, requestMutation, field, variables, headers);
  if (!approved) return { errors: requested.body.errors };
  if (approved.body.errors?.length) return { errors: approved.body.errors };
  return { result: approved.body.data!.approveRequest.result };
}

export const REQUEST_WALLET_RECOVERY = `mutation($input: RecoverInvestorWalletInput!) { requestWalletRecovery(input: $input) { id status } }`;
export const REQUEST_HOLDING_ADJUSTMENT = `mutation($input: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $input) { id status } }`;
