/**
 * How large one GraphQL document may be, on HTTP and graphql-ws alike (GRAPHQL_MAX_*). The
 * defaults hold the ops console's pages (100 orders with investor, share class and history) and
 * every REST operation with room to spare; they stop a document nesting without end
 * (`grants { distributor { grants … } }`) or repeating an expensive field under hundreds of
 * aliases (`issueAccessToken`, an scrypt run each).
 */
export interface GraphqlLimits {
  /** Deepest field nesting (GRAPHQL_MAX_DEPTH, default 10). */
  maxDepth: number;
  /** Aliases in one document (GRAPHQL_MAX_ALIASES, default 15). */
  maxAliases: number;
  /** graphql-armor's static cost: 2 per object field and 1 per scalar, times 1.5 per level (GRAPHQL_MAX_COST, default 5000). */
  maxCost: number;
  /** Lexical tokens of the document (GRAPHQL_MAX_TOKENS, default 2000). */
  maxTokens: number;
  /** Directives in one document (GRAPHQL_MAX_DIRECTIVES, default 50). */
  maxDirectives: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 10, maxAliases: 15, maxCost: 5000, maxTokens: 2000, maxDirectives: 50 };
