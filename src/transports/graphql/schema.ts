import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { RESOLVERS } from './resolvers';
import { guardSchema } from './visibility';
import { guardOpsRoles } from './ops-guard';
import { countWrites } from '../../access/quotas';
import { callFieldResolversDirectly, ResolverInstances } from './field-resolver-calls';
import { rootFieldsInResolverOrder } from './root-field-order';

let schema: GraphQLSchema | null = null;

/**
 * The schema, built once per process (type-graphql keeps global metadata), its root fields in the
 * modules' order (root-field-order.ts), its field resolvers
 * called directly (field-resolver-calls.ts), with its visibility rules, ops role rules and write
 * quota applied; the quota wraps outermost, so a refused write opens no transaction.
 */
export function gatewaySchema(): GraphQLSchema {
  if (schema) return schema;
  const container = new ResolverInstances();
  const built = rootFieldsInResolverOrder(buildSchemaSync({ resolvers: RESOLVERS, validate: false, pubSub: TOPIC_PUBSUB_UNUSED, container }), RESOLVERS);
  schema = countWrites(guardOpsRoles(guardSchema(callFieldResolversDirectly(built, RESOLVERS, container))));
  return schema;
}

/**
 * type-graphql insists on a PubSub once a schema has subscriptions. Ours each bring their own
 * `subscribe` over the gateway's event bus (src/events/pubsub.ts), so topic-based ones are refused.
 */
const TOPIC_PUBSUB_UNUSED = {
  publish(): void {
    throw new Error('use services.eventBus');
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions take a `subscribe` function over services.eventBus');
  },
};
