import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonSchema } from './openapi/schemas';

/** The prefix both REST surfaces are served under: the description's paths follow it. */
export const REST_PREFIX = '/api/v1';

/** What a route sees of the HTTP request. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/**
 * How the caller is identified on this route:
 * - `none`: nobody (health, the token endpoints' own credentials are checked by their operation);
 * - `host`: surface R, the distributor mapped to the request's hostname;
 * - `bearer`: surface O, the distributor of the access token.
 */
export type RouteAuth = 'none' | 'host' | 'bearer';

/**
 * A REST route is a row: method and path of the description, the fixed GraphQL operation it
 * runs in-process, how path/query/body become variables, and how the result becomes `data`.
 * Written through `route()`, which checks the row against its operation's types.
 */
export interface RouteRow<TResult, TVars> {
  method: 'GET' | 'POST';
  path: string;
  auth: RouteAuth;
  /** Tells apart routes sharing a method and path (e.g. the two order flows of R). */
  when?: (req: RestRequest) => boolean;
  document: TypedDocumentNode<TResult, TVars>;
  variables: (req: RestRequest) => NoInfer<Sent<TVars>>;
  data: (result: TResult, req: RestRequest) => unknown;
  /** The default `x-actor` of writes on this route. */
  defaultActor?: string;
  /**
   * The operation calls a system outside the database (the supply-side platform, a webhook
   * endpoint) between its writes, so it cannot run inside one transaction with its
   * Idempotency-Key (rest-compat/idempotency.ts); its own claim on the record guards it instead.
   */
  callsOut?: true;
  /** What the OpenAPI documents say of this row (rest-compat/openapi/document.ts). */
  doc: RouteDoc;
}

/**
 * Variables as a request sends them: the operation's variables, key for key and nested, each
 * value as the client sent it. GraphQL coerces every value against the operation's declared type,
 * and a value of the wrong type is a 400 naming its field (executor.ts, `fromError`), so a row
 * passes the client's values on rather than asserting their types.
 */
export type Sent<T> = [unknown] extends [T]
  ? unknown
  : [NonNullable<T>] extends [readonly unknown[]]
    ? unknown
    : [NonNullable<T>] extends [object]
      ? { [K in keyof NonNullable<T>]: Sent<NonNullable<T>[K]> } | Extract<T, null | undefined>
      : unknown;

/** A row of a route table, its types checked where it was written (`route()`). */
export interface RestRoute extends Omit<RouteRow<unknown, unknown>, 'document' | 'variables' | 'data'> {
  document: DocumentNode;
  variables: (req: RestRequest) => Record<string, unknown>;
  data: (result: unknown, req: RestRequest) => unknown;
}

/**
 * A row's contract: its summary and the JSON Schemas of what it takes and returns, with the
 * statuses and messages it answers besides those every row of its surface shares.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** Path parameters by name. */
  params?: Record<string, JsonSchema>;
  /** Query parameters by name; `required: true` inside marks a required one. */
  query?: Record<string, JsonSchema & { required?: boolean }>;
  /** The JSON body, when the row reads one. */
  body?: JsonSchema;
  /** The envelope's `data` on success. */
  data: JsonSchema;
  /** Documented failures of this row: status → the `errorMsg`s it answers with. */
  errors?: Record<number, string[]>;
  /** The whole row is an addition to the description. */
  additive?: boolean;
  /** Its credentials, when not its surface's usual ones (OpenAPI `security`). */
  security?: Record<string, string[]>[];
}

/**
 * A row of a route table. Its operation's result is `TResult`: codegen typed the document from
 * the schema that the boot validates it against (executor.ts, `validateRoutes`).
 */
export function route<TResult, TVars>(r: RouteRow<TResult, TVars>): RestRoute {
  return { ...r, variables: (req) => r.variables(req) as Record<string, unknown>, data: (result, req) => r.data(result as TResult, req) };
}

/** Reads a query-string value as sent: the first value when repeated. */
export function queryValue(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}
