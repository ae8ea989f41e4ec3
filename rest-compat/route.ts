import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { IncomingHttpHeaders } from 'node:http';

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
 */
export interface RestRoute<TResult = any, TVars = any> {
  method: 'GET' | 'POST';
  path: string;
  auth: RouteAuth;
  /** Tells apart routes sharing a method and path (e.g. the two order flows of R). */
  when?: (req: RestRequest) => boolean;
  document: TypedDocumentNode<TResult, TVars>;
  variables: (req: RestRequest) => TVars;
  data: (result: TResult, req: RestRequest) => unknown;
  /** The default `x-actor` of writes on this route. */
  defaultActor?: string;
}

export function route<TResult, TVars>(r: RestRoute<TResult, TVars>): RestRoute<TResult, TVars> {
  return r;
}

/** Reads a query-string value as sent: the first value when repeated. */
export function queryValue(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}
