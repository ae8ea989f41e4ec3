import type { ApolloServerPlugin } from '@apollo/server';
import { type ASTNode, type DocumentNode, GraphQLError, Kind, visit } from 'graphql';
import { inputProblem, numberProblem, textProblem } from '../../common/validate';

/*
 * Input hygiene of the GraphQL door: the same rules as the REST facade (src/common/validate.ts),
 * applied to every literal argument of the document and every variable before anything
 * resolves. A problem is one BAD_USER_INPUT error naming the argument or input field, with HTTP
 * 400.
 */

/** The first problem of an operation's literal arguments and variables, or null. */
export function operationInputProblem(document: DocumentNode, variables: Record<string, unknown> | undefined): string | null {
  let problem = literalProblem(document);
  for (const [name, value] of Object.entries(variables ?? {})) problem ??= inputProblem(value, name);
  return problem;
}

/**
 * A document's literals are the same on every request that sends it, and Apollo's document cache
 * hands back the same DocumentNode for the same text: their verdict is kept with the document
 * instead of walking it again on every request (a share-class read: ~100 nodes).
 */
const literalVerdicts = new WeakMap<DocumentNode, string | null>();

function literalProblem(document: DocumentNode): string | null {
  const known = literalVerdicts.get(document);
  if (known !== undefined) return known;
  let problem: string | null = null;
  const check = (found: string | null) => {
    if (found && !problem) problem = found;
  };
  visit(document, {
    StringValue: (node, _key, parent, _path, ancestors) => void check(textProblem(node.value, fieldOf(parent, ancestors))),
    IntValue: (node, _key, parent, _path, ancestors) => void check(numberProblem(Number(node.value), fieldOf(parent, ancestors))),
    FloatValue: (node, _key, parent, _path, ancestors) => void check(numberProblem(Number(node.value), fieldOf(parent, ancestors))),
  });
  literalVerdicts.set(document, problem);
  return problem;
}

type Ancestor = ASTNode | ReadonlyArray<ASTNode> | undefined;

/** The name of the argument, input field or variable a literal is the value of (`parent` is not among `ancestors`). */
function fieldOf(parent: Ancestor, ancestors: ReadonlyArray<Ancestor>): string {
  const chain = [...ancestors, parent];
  for (let i = chain.length - 1; i >= 0; i--) {
    const node = chain[i];
    if (!node || !('kind' in node)) continue; // lists of nodes are ancestors too
    if (node.kind === Kind.OBJECT_FIELD || node.kind === Kind.ARGUMENT) return node.name.value;
    if (node.kind === Kind.VARIABLE_DEFINITION) return node.variable.name.value;
  }
  return 'argument';
}

/** The Apollo plugin that refuses an operation whose input breaks the rules. */
export const inputHygienePlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ document, request }) {
        const problem = operationInputProblem(document, request.variables);
        if (problem) throw new GraphQLError(problem, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
      },
    };
  },
};

/**
 * Body-parser failures on /graphql answer as GraphQL errors with 400 (malformed JSON, unsupported
 * encoding) or 413 (too large); null for anything else, which is the server's failure.
 */
export function bodyRefusal(err: unknown): { status: number; body: { errors: [{ message: string; extensions: { code: string } }] } } | null {
  const { type, status } = (err ?? {}) as { type?: string; status?: number };
  const answer = (status: number, message: string, code: string) => ({
    status,
    body: { errors: [{ message, extensions: { code } }] as [{ message: string; extensions: { code: string } }] },
  });
  if (type === 'entity.too.large') return answer(413, 'request body too large', 'PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed') return answer(400, 'malformed JSON body', 'BAD_REQUEST');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return answer(400, 'unsupported body encoding', 'BAD_REQUEST');
  if (status === 400) return answer(400, 'malformed request body', 'BAD_REQUEST');
  return null;
}
