import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayContext } from '../../access/graphql-context';

type Gateway = ApolloServerOptionsWithGateway<GatewayContext>['gateway'];

/**
 * Apollo's execution step, the schema unchanged: queries a client repeats run as graphql-jit
 * compiled functions instead of graphql-js's interpreter, which spends most of a large page's
 * CPU walking fields. A query is compiled on its second request, so a one-off never pays for it.
 * Apollo still parses, validates (its document cache, our limits), runs the plugins and formats
 * errors; only `execute` is replaced, through the executor of its gateway
 * interface (the one hook Apollo Server 5 offers for it). The compiled code calls the schema's
 * own field resolvers, so the visibility guard (visibility.ts) applies exactly as under
 * graphql-js, as it does for the REST facade's fixed operations (rest-compat/executor.ts).
 *
 * Mutations keep graphql-js (their cost is the write, and its serial execution is the rule), and
 * variables the compiled code refuses are handed back to graphql-js (nothing has run yet), so a
 * bad input answers with graphql-js's messages and Apollo's 400 exactly as before.
 */
export function compiledExecution(schema: GraphQLSchema): Gateway {
  // Apollo's document cache hands back the same DocumentNode for the same query text.
  const seen = new WeakMap<DocumentNode, Set<string>>();
  const seenBefore = (document: DocumentNode, operationName: string | null): boolean => {
    let names = seen.get(document);
    if (!names) seen.set(document, (names = new Set()));
    const key = operationName ?? '';
    if (names.has(key)) return true;
    names.add(key);
    return false;
  };

  const run = (
    document: DocumentNode,
    operationName: string | null,
    isQuery: boolean,
    variableValues: Record<string, unknown> | undefined,
    contextValue: GatewayContext,
  ) => executeCompiled(schema, document, operationName, variableValues ?? {}, contextValue, isQuery && seenBefore(document, operationName));

  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return {
        executor: (request) =>
          run(request.document, request.operationName, request.operation.operation === 'query', request.request.variables, request.context as GatewayContext),
      };
    },
    async stop() {},
  };
}

/** Compiled operations, once per schema, document and operation name; null: it does not compile. */
const compiledOperations = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, CompiledQuery | null>>>();

/** The operation compiled by graphql-jit (null when it does not compile: graphql-js runs it). */
export function compiledOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | null = null): CompiledQuery | null {
  let byDocument = compiledOperations.get(schema);
  if (!byDocument) compiledOperations.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map<string, CompiledQuery | null>()));
  const key = operationName ?? '';
  let query = byName.get(key);
  if (query === undefined) {
    const result = compileQuery(schema, document, operationName ?? undefined);
    byName.set(key, (query = isCompiledQuery(result) ? result : null));
  }
  return query;
}

/**
 * Executes an operation compiled when `compiled` (and it compiles), else with graphql-js. Variables
 * the compiled code refuses (nothing has run yet: the result has no `data`) are handed to
 * graphql-js, whose coercion messages the doors already map, so a bad input answers exactly as it
 * would without compiling. Both doors run their operations here: GraphQL over HTTP (above) and
 * the REST facade's fixed operations (rest-compat/executor.ts).
 */
export async function executeCompiled(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
  variableValues: Record<string, unknown>,
  contextValue: GatewayContext,
  compiled = true,
): Promise<ExecutionResult> {
  const query = compiled ? compiledOperation(schema, document, operationName) : null;
  if (query) {
    const result = await query.query(undefined, contextValue, variableValues);
    if ('data' in result) return result.errors?.length ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  }
  return execute({ schema, document, operationName, variableValues, contextValue });
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
