import { createSourceEventStream, execute, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { GatewayContext } from '../../access/graphql-context';

/**
 * graphql-ws's `subscribe`: graphql-js's own, except that an event is executed once for all the
 * subscribers that would get the same answer, not once per subscriber. An event from the bus is
 * one object per instance, handed to every subscriber whose filter lets it through (filters and
 * visibility stay per subscriber, in the source stream); its execution is kept with it (a weak
 * reference: gone with the event) under the subscription's document, operation, variables and
 * principal, so subscribers of different principals never share an answer. With 1,000 console
 * subscribers of one ops token, an order transition is resolved once instead of 1,000 times.
 */
export function sharedSubscribe(): (args: ExecutionArgs) => Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const executions = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
  const printed = new WeakMap<DocumentNode, string>();

  return async (args) => {
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    let document = printed.get(args.document);
    if (document === undefined) printed.set(args.document, (document = print(args.document)));
    const principal = (args.contextValue as GatewayContext).access.principal;
    const key = JSON.stringify([principal, document, args.operationName ?? null, args.variableValues ?? {}]);
    return mapEvents(stream, (event) => {
      const run = () => Promise.resolve(execute({ ...args, rootValue: event }));
      if (event === null || typeof event !== 'object') return run();
      let byKey = executions.get(event);
      if (!byKey) executions.set(event, (byKey = new Map<string, Promise<ExecutionResult>>()));
      let result = byKey.get(key);
      if (!result) byKey.set(key, (result = run()));
      return result;
    });
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === 'function';
}

/**
 * The events mapped to their results, as graphql-js maps them: `return` reaches the source at
 * once (an async generator would wait for the next event before unsubscribing).
 */
function mapEvents(source: AsyncIterable<unknown>, map: (event: unknown) => Promise<ExecutionResult>): AsyncGenerator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  const mapped = async (r: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> =>
    r.done ? { value: undefined, done: true } : { value: await map(r.value), done: false };
  const generator: AsyncGenerator<ExecutionResult> = {
    next: () => iterator.next().then(mapped),
    return: async () => (iterator.return ? mapped(await iterator.return()) : { value: undefined, done: true }),
    throw: async (err: unknown) => {
      if (iterator.throw) return mapped(await iterator.throw(err));
      throw err;
    },
    [Symbol.asyncIterator]() {
      return generator;
    },
  };
  return generator;
}
