import type { Services } from './services';

/**
 * The request context's services are the ones wired in services.ts. The context is declared in the
 * access layer, below the modules, so it cannot import them; the composition root says it here.
 */
declare module './access/graphql-context' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges Services into the context's slot
  interface ContextServices extends Services {}
}
