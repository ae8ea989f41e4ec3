import { ApolloServer, HeaderMap, type ApolloServerPlugin, type HTTPGraphQLResponse } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { graphqlContext } from '../../access/graphql-principal';
import { consoleSessionOf } from '../../access/console-session-cookie';
import { currentScope, runInDoorScope } from '../../common/request-scope';
import type { ContextServices as Services } from '../../access/graphql-context';
import { graphqlWebSocket } from '../websocket/websocket';
import { compiledExecution } from './compiled-execution';
import type { GatewayContext } from '../../access/graphql-context';
import { errorFormatter } from './format-error';
import { bodyRefusal, inputHygienePlugin } from './input-guard';
import type { GraphqlLimits } from '../../config/graphql-limits';
import { graphqlGuards } from './limits';
import { operationGuardPlugin } from './operation-guard';

/** Where GraphQL answers, over HTTP and graphql-ws alike. */
export const GRAPHQL_PATH = '/graphql';
/**
 * How long a stop lets the requests in flight finish once it stops listening; then their
 * connections are closed (a keep-alive client that never pauses, or a request waiting on a
 * database that is away, would hold the stop otherwise).
 */
export const IN_FLIGHT_GRACE_MS = 5000;

export interface GraphqlTransportDeps {
  server: Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  services: Services;
  development: boolean;
  /** Answer introspection (development and test only). */
  introspection: boolean;
  limits: GraphqlLimits;
  bodyLimit: string;
  /** The largest graphql-ws message, in bytes (the body limit's). */
  maxPayload: number;
  /** The caller's address of an upgrade request, as express's `trust proxy` reads it. */
  clientAddress: (req: IncomingMessage) => string;
  /** Plugins beside the transport's own (metrics). */
  plugins: ApolloServerPlugin<GatewayContext>[];
  websocketRecheckMs?: number;
}

export interface GraphqlTransport {
  /**
   * Serves one HTTP request to GRAPHQL_PATH on node's own request and response (src/app.ts hands
   * it over ahead of express, as it does the REST facade's): the body read with body-parser under
   * the body limit (a body that is not JSON answers 400/413 as a GraphQL error), then Apollo's
   * `executeHTTPGraphQLRequest`, which does what an integration would (method, CSRF prevention,
   * landing page, GET queries, status and headers). Rejects only on what the server cannot answer.
   */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  stop(): Promise<void>;
}

/**
 * GraphQL over HTTP (Apollo Server, Sandbox in development) and over graphql-ws on the same path
 * (where Apollo Sandbox finds subscriptions), under one set of limits, one error format and one
 * principal per request.
 */
export async function graphqlTransport(deps: GraphqlTransportDeps): Promise<GraphqlTransport> {
  const guards = graphqlGuards(deps.limits, { introspection: deps.introspection });
  const formatError = errorFormatter({ development: deps.development });
  const apollo = new ApolloServer<GatewayContext>({
    // The schema, with repeated queries executed compiled (compiled-execution.ts).
    gateway: compiledExecution(deps.schema),
    formatError,
    // Introspection is refused by graphqlGuards' rules, the same on HTTP and graphql-ws.
    introspection: true,
    validationRules: guards.validationRules,
    parseOptions: guards.parseOptions,
    // A JSON array of operations is refused (400): one request, one document within the limits.
    allowBatchedHttpRequests: false,
    // Outside development no answer carries a stack trace or a file path, whatever NODE_ENV says.
    includeStacktraceInErrorResponses: deps.development,
    // Apollo's own SIGTERM handler (on unless NODE_ENV=test, which is why the suite never saw it)
    // ran its drain plugin at once and closed the HTTP server: the 503 window of /ready never
    // happened. The gateway's stop (src/main.ts) decides when serving ends and stops Apollo then.
    stopOnTerminationSignals: false,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: deps.server, stopGracePeriodMillis: IN_FLIGHT_GRACE_MS }),
      // Apollo's default cache-control plugin wraps every field's resolver to gather cache hints
      // that nothing here sets, so it always answered `no-store`; that header is kept without the
      // per-field cost (docs/benchmarks.md).
      ApolloServerPluginCacheControlDisabled(),
      operationGuardPlugin,
      inputHygienePlugin,
      { serverWillStart: async () => ({ drainServer: async () => void (await sockets.dispose()) }) },
      ...deps.plugins,
      // Apollo Sandbox (scripts from Apollo's CDN on this origin) in development only; elsewhere no page at all.
      deps.development ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }) : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  const sockets = graphqlWebSocket({
    server: deps.server,
    path: GRAPHQL_PATH,
    schema: deps.schema,
    orm: deps.orm,
    services: deps.services,
    guards,
    formatError,
    maxPayload: deps.maxPayload,
    clientAddress: deps.clientAddress,
    recheckMs: deps.websocketRecheckMs,
  });
  await apollo.start();
  const services = deps.services;
  // body-parser reads node's request as it is: limits, charsets, compressed bodies and their refusals.
  const parseJson = express.json({ limit: deps.bodyLimit });
  /** The parsed body, or a refusal already answered (null); what body-parser fails with otherwise is the server's. */
  const readBody = (req: IncomingMessage & { body?: unknown }, res: ServerResponse) =>
    new Promise<{ body: unknown } | null>((resolve, reject) =>
      parseJson(req, res, (err?: unknown) => {
        if (!err) return resolve({ body: req.body });
        const refusal = bodyRefusal(err);
        if (!refusal) return reject(err instanceof Error ? err : new Error('body-parser failed', { cause: err }));
        sendComplete(req, res, refusal.status, [['content-type', 'application/json; charset=utf-8']], JSON.stringify(refusal.body));
        resolve(null);
      }),
    );

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readBody(req, res);
    if (!read) return;
    const body = read.body;
    const actor = header(req, 'x-actor')?.trim() || undefined;
    await runInDoorScope({ requestId: header(req, 'x-request-id') || undefined, actor, principal: 'anonymous' }, async () => {
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const answer = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: (req.method ?? 'GET').toUpperCase(), headers, search: searchOf(req.url ?? ''), body },
        context: async () => {
          const scope = currentScope();
          const ctx = await graphqlContext(services, deps.orm.em.fork(), header(req, 'authorization'), scope?.requestId ?? '', consoleSessionOf(req));
          // Ops writes default their actor to the token's name.
          if (scope && !actor && ctx.access.opsName) scope.actor = ctx.access.opsName;
          return ctx;
        },
      });
      await send(req, res, answer);
    });
  }

  return {
    serve,
    stop: () => apollo.stop(),
  };
}

/** A request header as express's `req.get` reads it (repeated ones joined by node). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The query string with its `?` (Apollo reads GET operations from it), as `url.parse` gave it; a fragment is not part of it. */
function searchOf(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return '';
  const hash = url.indexOf('#', q);
  return hash < 0 ? url.slice(q) : url.slice(q, hash);
}

/** Apollo's answer on node's response: whole, or chunk by chunk when it is incremental. */
async function send(req: IncomingMessage, res: ServerResponse, answer: HTTPGraphQLResponse): Promise<void> {
  const status = answer.status ?? 200;
  if (answer.body.kind === 'complete') return sendComplete(req, res, status, answer.headers, answer.body.string);
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.statusCode = status;
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

/**
 * A whole answer as express's `res.send` wrote one (a text type gets `charset=utf-8`, the length
 * is set, HEAD gets no body), without its ETag (API answers are `no-store`: rest-compat/send.ts).
 */
function sendComplete(req: IncomingMessage, res: ServerResponse, status: number, headers: Iterable<[string, string]>, text: string): void {
  for (const [name, value] of headers) res.setHeader(name, value);
  const type = res.getHeader('content-type');
  if (typeof type === 'string' && !/;\s*charset=/i.test(type)) res.setHeader('content-type', `${type}; charset=utf-8`);
  res.statusCode = status;
  res.setHeader('content-length', Buffer.byteLength(text));
  if (req.method === 'HEAD') res.end();
  else res.end(text);
}
