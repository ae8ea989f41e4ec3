import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayContext } from './context';

type Gateway = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];

/** A document is compiled on its second request: a one-off query never pays for compiling. */
const SEEN_ONCE = 'seen once';

/**
 * Apollo's execution step, the schema unchanged: queries a client repeats run as graphql-jit
 * compiled functions instead of graphql-js's interpreter, which spends most of a large page's
 * CPU walking fields. Apollo still parses, validates (its document cache, our limits), runs the
 * plugins and formats errors; only `execute` is replaced, through the executor of its gateway
 * interface (the one hook Apollo Server 5 offers for it). The compiled code calls the schema's
 * own field resolvers, so the visibility guard (./visibility.ts) applies exactly as under
 * graphql-js, as it does for the REST facade's fixed operations (rest-compat/executor.ts).
 *
 * Mutations keep graphql-js (their cost is the write, and its serial execution is the rule), and
 * variables the compiled code refuses are handed back to graphql-js (nothing has run yet), so a
 * bad input answers with graphql-js's messages and Apollo's 400 exactly as before.
 */
export function compiledExecution(schema: GraphQLSchema): Gateway {
  // Apollo's document cache hands back the same DocumentNode for the same query text.
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | typeof SEEN_ONCE>>();
  const compiledFor = (document: DocumentNode, operationName: string | null): CompiledQuery | null => {
    let byName = compiled.get(document);
    if (!byName) compiled.set(document, (byName = new Map()));
    const key = operationName ?? '';
    const known = byName.get(key);
    if (known === undefined) {
      byName.set(key, SEEN_ONCE);
      return null;
    }
    if (known !== SEEN_ONCE) return known;
    const query = compileQuery(schema, document, operationName ?? undefined);
    // Whatever does not compile keeps graphql-js for good.
    if (!isCompiledQuery(query)) return null;
    byName.set(key, query);
    return query;
  };

  const run = async (document: DocumentNode, operationName: string | null, isQuery: boolean, variableValues: Record<string, unknown> | undefined, contextValue: GatewayContext): Promise<ExecutionResult> => {
    const query = isQuery ? compiledFor(document, operationName) : null;
    if (query) {
      const result = await query.query(undefined, contextValue, variableValues ?? {});
      if ('data' in result) return result.errors?.length ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
    }
    return execute({ schema, document, operationName, variableValues, contextValue });
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return {
        executor: (request) => run(request.document, request.operationName, request.operation.operation === 'query', request.request.variables, request.context as GatewayContext),
      };
    },
    async stop() {},
  };
}

/**
 * graphql-jit's errors lack graphql-js's `extensions: {}` when the cause has none, which Apollo's
 * error formatting reads: the same error as graphql-js would raise (message, path, cause,
 * locations), so formatError masks and maps it as always.
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  const same = new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: error.extensions });
  (same as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return same;
}
