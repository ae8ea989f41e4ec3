import { defaultFieldResolver, type GraphQLField, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { forbidden } from '../../common/errors';
import { logger } from '../../common/logger';
import { errorCodeOf, type AuditOutcome } from '../../modules/audit/audit-log';
import type { GatewayContext } from '../../access/graphql-context';
import { dutyMatrixProblems } from '../../access/duties';
import { OPS_RULES } from '../../modules/manifests';
import { rootFieldRulesFile } from './root-field-module';
import { principalLabel, type OpsRole } from '../../access/principal';

/** The refusal of an ops caller without the role a field needs (403). */
export const missingRole = (role: OpsRole) => forbidden(`the ${role} role is required`);

/**
 * Applies the role rules of every module's manifest (`mutationRoles`, `queryRoles`, folded in OPS_RULES) to the built schema, once per process, so every
 * door enforces them. An ops mutation:
 * - is refused (403) unless the principal has the field's role; the refusal is logged;
 * - is in the audit log (src/modules/audit/audit-log.ts) before it runs, `pending`, and its row is
 *   sealed once it has answered: `ok` after its own transactions committed, `error` with its code.
 * Throws when a mutation has no role rule or no line in the duty matrix (src/access/duties.ts), or
 * a rule names no field: the gateway does not start, and the message names the module's front door
 * (src/modules/<m>/index.ts) to edit.
 */
export function guardOpsRoles(schema: GraphQLSchema): GraphQLSchema {
  const problems: string[] = [];
  const mutation = schema.getMutationType();
  const where = (field: string) => rootFieldRulesFile('Mutation', field, 'the index.ts of the module that defines it');
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    const role = OPS_RULES.mutationRoles[field.name];
    if (!role) problems.push(`mutation ${field.name} has no role rule (${where(field.name)})`);
    else guardMutation(field as GraphQLField<unknown, GatewayContext>, role);
  }
  for (const name of Object.keys(OPS_RULES.mutationRoles))
    if (!mutation?.getFields()[name]) problems.push(`role rule for mutation ${name}, which does not exist (${where(name)})`);
  // The duty matrix (src/access/duties.ts) classifies every mutation too: moving nothing, or its part in an action that moves value.
  problems.push(...dutyMatrixProblems(OPS_RULES.mutationDuties, Object.keys(mutation?.getFields() ?? {}), where));
  const query = schema.getQueryType();
  for (const [name, role] of Object.entries(OPS_RULES.queryRoles)) {
    const field = query?.getFields()[name];
    if (!field)
      problems.push(`role rule for query ${name}, which does not exist (${rootFieldRulesFile('Query', name, 'the index.ts of the module that defines it')})`);
    else guardRead(field as GraphQLField<unknown, GatewayContext>, role);
  }
  if (problems.length) throw new Error(`ops role and duty rules are incomplete:\n- ${problems.join('\n- ')}`);
  return schema;
}

function guardRead(field: GraphQLField<unknown, GatewayContext>, role: OpsRole): void {
  const resolve: GraphQLFieldResolver<unknown, GatewayContext> = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    if (ctx.access.isOps && !ctx.access.hasRole(role)) throw missingRole(role);
    return resolve(source, args, ctx, info);
  };
}

function guardMutation(field: GraphQLField<unknown, GatewayContext>, role: OpsRole): void {
  const resolve: GraphQLFieldResolver<unknown, GatewayContext> = field.resolve ?? defaultFieldResolver;
  field.resolve = async (source, args, ctx, info) => {
    // Distributors and nobody are their services' business (requireOps, the tenant rules).
    if (!ctx.access.isOps) return resolve(source, args, ctx, info);
    const call = { principal: principalLabel(ctx.access.principal)!, operation: field.name, args: args as Record<string, unknown> };
    const log = ctx.services.auditLog;
    if (!ctx.access.hasRole(role)) {
      const refusal = missingRole(role);
      await log.refused(ctx.em.fork(), call, errorCodeOf(refusal)).catch((e) => logger.error({ err: e }, 'audit log entry not written'));
      throw refusal;
    }
    // Written ahead: the row is committed before the mutation runs (if it cannot be, nothing runs),
    // and sealed with the outcome after. The mutation plans its own transactions (some wait on the
    // chain sender, which needs connections of its own: one transaction held around them would
    // starve the embedded database), so this order is what leaves no committed mutation unlogged.
    const id = await log.opened(ctx.em.fork(), call);
    // A row that cannot be sealed stays pending; the caller still gets the mutation's own answer.
    const seal = (answer: AuditOutcome) =>
      log.answered(ctx.em.fork(), id, answer).catch((e) => logger.error({ err: e, auditLogId: id }, 'audit log entry not sealed: it stays pending'));
    let out: unknown;
    try {
      out = await resolve(source, args, ctx, info);
    } catch (err) {
      await seal({ outcome: 'error', errorCode: errorCodeOf(err) });
      throw err;
    }
    await seal({ outcome: 'ok' });
    return out;
  };
}
