import {
  defaultFieldResolver,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { notFound, unauthenticated } from '../../common/errors';
import type { GatewayContext } from '../../access/graphql-context';
import { frontDoor, type Visibility } from '../../access/module-manifest';
import { MODULE_PARTS } from '../../modules/manifests';
import { typeRulesFile } from './root-field-module';

/**
 * The tenant rule of every object type of the schema, applied to every field that returns one,
 * at every depth, on every door (HTTP, graphql-ws, the REST facade's in-process execution).
 * Services answer the documented errors for what a caller names; this guard makes sure nothing a
 * caller did not name reaches it either (`shareClass { grants { distributor { hosts } } }`).
 *
 * A type without a rule stops the gateway at start (`guardSchema`): a new type is private until
 * someone decides who may see it. The module that defines a type writes its rule in its manifest
 * (`visibility`, src/modules/<m>/index.ts); the rows below are the types no module defines: the
 * roots, the pages (`PageOf`), the event feed and the subscriptions' payloads.
 */
const TRANSPORT_VISIBILITY: Record<string, Visibility> = {
  Query: 'open',
  Mutation: 'open',
  Subscription: 'open',
  DistributorPage: 'open',
  FundPage: 'open',
  InvestorPage: 'open',
  IssuerPage: 'open',
  OrderPage: 'open',
  ShareClassPage: 'open',
  TokenPage: 'open',
  EventFeedPage: 'open',
  ChainTransactionFinal: 'ops',
  ApprovalChange: 'ops',
  OrderUpdate: { owner: (u: { distributorId: string }) => u.distributorId },
  WebhookDeliveryOutcome: { owner: (m: { distributorId: string }) => m.distributorId },
  FeedEvent: { owner: (e: { distributorId: string }) => e.distributorId },
  NavPublication: { shareClass: (p: { shareClassId: string }) => p.shareClassId },
};

/** Every object type's rule: the transport's own, then each module's (its manifest, src/modules/<m>/index.ts). */
export const VISIBILITY: Record<string, Visibility> = { ...TRANSPORT_VISIBILITY, ...MODULE_PARTS.visibility };
for (const name of Object.keys(TRANSPORT_VISIBILITY))
  if (MODULE_PARTS.visibility[name]) throw new Error(`visibility row ${name} is declared by the transport and by ${frontDoor(MODULE_PARTS.declaredBy[name])}`);

/** Root fields nobody may call without a principal: every one but these. */
export const PUBLIC_ROOT_FIELDS: ReadonlySet<string> = new Set(['Query.health', 'Mutation.issueAccessToken', 'Mutation.refreshAccessToken']);

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * Whether the caller may see one record of a type with this rule: an answer at once when the
 * rule reads the record itself (a page of 100 orders checks 100 owners without a promise each),
 * a promise when it has to load something (an investor, a grant list).
 */
function visible(rule: Visibility, record: unknown, ctx: GatewayContext): boolean | Promise<boolean> {
  if (record === null || record === undefined) return true;
  if (rule === 'open' || rule === 'part') return true;
  if (ctx.access.isOps) return true;
  if (rule === 'ops') return false;
  if ('owner' in rule) {
    const owner = rule.owner(record, ctx);
    return owner instanceof Promise ? owner.then((id) => ctx.access.sees(id)) : ctx.access.sees(owner);
  }
  const shareClassId = rule.shareClass(record);
  return !!shareClassId && ctx.access.seesShareClass(ctx.em, shareClassId);
}

/**
 * What a field answers once its records are checked: a list keeps what the caller may see; a
 * single record it may not see answers null where the field allows it, else `<Type> not found`
 * (exactly as for a missing record).
 */
async function checked(type: GraphQLOutputType, rule: Visibility, value: unknown, ctx: GatewayContext): Promise<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    const answers = value.map((v) => visible(rule, v, ctx));
    const keep = answers.some((a) => a instanceof Promise) ? await Promise.all(answers.map((a) => Promise.resolve(a))) : (answers as boolean[]);
    return keep.every(Boolean) ? value : value.filter((_, i) => keep[i]);
  }
  if (await visible(rule, value, ctx)) return value;
  if (isNonNullType(type)) throw notFound(`${getNamedType(type).name} not found`);
  return null;
}

function guardField(parent: string, field: GraphQLField<unknown, GatewayContext>, rule: Visibility | null): void {
  const key = `${parent}.${field.name}`;
  const root = ROOTS.has(parent);
  const isPublic = PUBLIC_ROOT_FIELDS.has(key);
  const resolve: GraphQLFieldResolver<unknown, GatewayContext> = field.resolve ?? defaultFieldResolver;
  const needsCheck = rule !== null && rule !== 'open' && rule !== 'part';
  if (!root && !needsCheck) return;
  field.resolve = (source, args, ctx, info) => {
    if (root && !isPublic && ctx.access.isAnonymous) throw unauthenticated('authentication required');
    const out = resolve(source, args, ctx, info);
    // Ops see every book: nothing to check, nothing awaited.
    if (!needsCheck || ctx.access.isOps) return out;
    return Promise.resolve(out).then((value) => checked(field.type, rule, value, ctx));
  };
  if (root && field.subscribe) {
    const subscribe = field.subscribe;
    field.subscribe = (source, args, ctx, info) => {
      if (!isPublic && ctx.access.isAnonymous) throw unauthenticated('authentication required');
      return subscribe(source, args, ctx, info);
    };
  }
}

/**
 * Applies the rules to the built schema, once per process. Throws when an object type has no
 * rule, or when a root field returns a `part` (which is only safe under a checked parent).
 */
export function guardSchema(schema: GraphQLSchema): GraphQLSchema {
  const problems: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    if (!VISIBILITY[type.name]) problems.push(`type ${type.name} has no visibility rule (${typeRulesFile(schema, type.name)})`);
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const rule = isObjectType(named) ? (VISIBILITY[named.name] ?? 'ops') : null;
      if (ROOTS.has(type.name) && rule === 'part') problems.push(`root field ${type.name}.${field.name} returns ${named.name}, a part of another record`);
      guardField(type.name, field as GraphQLField<unknown, GatewayContext>, rule);
    }
  }
  for (const key of PUBLIC_ROOT_FIELDS) {
    const [typeName, fieldName] = key.split('.');
    const type = schema.getType(typeName);
    if (!isObjectType(type) || !type.getFields()[fieldName]) problems.push(`public root field ${key} does not exist`);
  }
  if (problems.length) throw new Error(`GraphQL visibility rules are incomplete:\n- ${problems.join('\n- ')}`);
  return schema;
}
