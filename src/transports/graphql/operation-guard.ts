import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, OperationTypeNode } from 'graphql';
import { GRAPHQL_WS_HINT } from '../websocket/websocket';

const badRequest = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/**
 * What a GraphQL request over HTTP must name before it executes: one operation of its document
 * (an unknown `operationName`, or several operations and none chosen, is the client's mistake:
 * 400, where the execution step otherwise failed with 500), and not a subscription, which HTTP
 * does not carry here (graphql-ws at the same path does).
 */
export const operationGuardPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, request, document }) {
        if (!operation) {
          const named = request.operationName;
          const count = document?.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length ?? 0;
          throw badRequest(
            named
              ? `Unknown operation named "${String(named).slice(0, 100)}".`
              : count > 1
                ? 'Must provide operation name if query contains multiple operations.'
                : 'The document holds no operation.',
          );
        }
        if (operation.operation === OperationTypeNode.SUBSCRIPTION) throw badRequest(`subscriptions are not served over HTTP: ${GRAPHQL_WS_HINT}`);
      },
    };
  },
};
