import type { GraphQLSchema } from 'graphql';

/**
 * The bench's control channel to a server it spawned: Node's IPC, not an HTTP endpoint, so
 * nothing is added to the product. `cpu` answers `process.cpuUsage()` and the resident set;
 * `schema` answers the introspection of the process's GraphQL schema (when it has one);
 * `stop` closes the server and exits (which also writes a `--cpu-prof` profile).
 */
export function installControl(stop: () => Promise<void>, schema?: () => GraphQLSchema): void {
  process.on('message', (msg: { type?: string; id?: number }) => {
    void (async () => {
      switch (msg?.type) {
        case 'cpu':
          process.send?.({ type: 'cpu', id: msg.id, usage: process.cpuUsage(), rss: process.memoryUsage().rss });
          break;
        case 'schema': {
          const { introspectionFromSchema } = await import('graphql');
          process.send?.({ type: 'schema', id: msg.id, introspection: schema ? introspectionFromSchema(schema()) : null });
          break;
        }
        case 'stop':
          await stop().catch(() => undefined);
          process.exit(0);
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
}
