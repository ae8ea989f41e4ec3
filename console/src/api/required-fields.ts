import sdl from '../../../schema/schema.graphql?raw';

/*
 * Which fields of an input the gateway requires, read from its schema (schema/schema.graphql, the
 * emitted SDL that a test keeps equal to the gateway's): a field whose type is non-null (`!`).
 * Forms mark those before the first submission instead of keeping their own list, so a field the
 * API starts requiring is marked without touching the form.
 */

/** Each input type's fields: name → [type name, non-null]. */
const INPUTS: Map<string, Map<string, [string, boolean]>> = new Map();
for (const block of sdl.matchAll(/^input (\w+) \{([\s\S]*?)^\}/gm)) {
  const fields = new Map<string, [string, boolean]>();
  // Descriptions (`"""…"""`) are dropped first: they may contain `name: Type`-like text.
  const body = block[2].replace(/"""[\s\S]*?"""|"[^"\n]*"/g, '');
  // `name: Type!` is required; `name: Type`, `name: [Type!]` and one with a default (`= …`) are not.
  for (const f of body.matchAll(/^\s*(\w+)\s*:\s*(\[?)(\w+)([^=\n]*)$/gm)) fields.set(f[1], [f[3], f[4].trim().endsWith('!')]);
  INPUTS.set(block[1], fields);
}

/**
 * The dotted paths (`details.isin`) of every required field of input type `type`, nested input
 * objects included (a nested field is required where its object is given).
 */
export function requiredPaths(type: string): ReadonlySet<string> {
  const out = new Set<string>();
  const walk = (name: string, prefix: string, depth: number) => {
    for (const [field, [fieldType, nonNull]] of INPUTS.get(name) ?? []) {
      if (INPUTS.has(fieldType) && depth < 4) walk(fieldType, `${prefix}${field}.`, depth + 1);
      else if (nonNull) out.add(`${prefix}${field}`);
    }
  };
  if (!INPUTS.has(type)) throw new Error(`no input type ${type} in the schema`);
  walk(type, '', 0);
  return out;
}
