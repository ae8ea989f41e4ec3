import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphqlLimits } from '../../config/graphql-limits';
import { GraphQLError, NoSchemaIntrospectionCustomRule, parse, type DocumentNode, type ParseOptions, type ValidationRule } from 'graphql';

/** What both doors apply: Apollo's options for HTTP, parse and validate for graphql-ws. */
export interface GraphqlGuards {
  /** GraphQL's own parser options: the token limit (a syntax error beyond it, 400 on HTTP). */
  parseOptions: ParseOptions;
  /** Validation rules added to GraphQL's own, on both doors. */
  validationRules: ValidationRule[];
  /** Parses a document within the token limit (graphql-ws); throws a GraphQLError. */
  parse(source: string): DocumentNode;
}

/** A rejected document is a client error with graphql-armor's message (e.g. "Query depth limit of 10 exceeded, found 11."). */
const reject = (ctx: { reportError(e: GraphQLError): void } | null, error: GraphQLError) =>
  ctx?.reportError(new GraphQLError(error.message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));

/**
 * The limits of one gateway, built once with graphql-armor. Batched HTTP requests (a JSON array)
 * are refused by Apollo (`allowBatchedHttpRequests` stays false). Introspection is answered only
 * when `introspection` is true (development); field suggestions are masked by formatError.
 */
export function graphqlGuards(limits: GraphqlLimits, options: { introspection: boolean }): GraphqlGuards {
  const onReject = { propagateOnRejection: false, onReject: [reject] };
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...onReject },
    maxAliases: { n: limits.maxAliases, allowList: [], ...onReject },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true, ...onReject },
    maxDirectives: { n: limits.maxDirectives, ...onReject },
    // graphql-js counts tokens while it parses (parseOptions): a syntax error, where
    // graphql-armor's Apollo plugin would throw past Apollo and answer 500.
    maxTokens: { enabled: false },
    // formatError masks suggestions on both doors (graphql-armor's plugin would cover HTTP only).
    blockFieldSuggestion: { enabled: false },
  });
  const protection = armor.protect();
  const validationRules = [...protection.validationRules, ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const parseOptions: ParseOptions = { maxTokens: limits.maxTokens };
  return { parseOptions, validationRules, parse: (source) => parse(source, parseOptions) };
}
