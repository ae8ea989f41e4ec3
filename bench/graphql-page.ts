/**
 * Builds the "GraphQL page of orders with investor and share class" operation from the schema the
 * gateway actually serves (its introspection), so the scenario starts working by itself once
 * `orders(filter, page)` exists, whatever the exact names of its page and filter fields.
 * Returns why it cannot be built otherwise (the scenario is then reported as skipped).
 */
import type {
  IntrospectionField,
  IntrospectionObjectType,
  IntrospectionQuery,
  IntrospectionType,
  IntrospectionTypeRef,
  IntrospectionInputObjectType,
} from 'graphql';

export interface PageOperation {
  query: string;
  variables: Record<string, unknown>;
  /** Path from `data` to the list of orders in the answer. */
  itemsPath: string[];
  /** What the baseline must mirror. */
  filter: { distributorId: string | null; status: string | null };
  /** The fields selected, so the baseline writes the same JSON (no more, no less where a column matches). */
  fields: { order: string[]; investor: string[]; shareClass: string[] };
}

type Named = { kind: string; name: string };

function unwrap(ref: IntrospectionTypeRef): { named: Named; list: boolean } {
  let list = false;
  let t: any = ref;
  while (t.kind === 'NON_NULL' || t.kind === 'LIST') {
    if (t.kind === 'LIST') list = true;
    t = t.ofType;
  }
  return { named: t as Named, list };
}

const isLeaf = (kind: string) => kind === 'SCALAR' || kind === 'ENUM';

function leafFields(type: IntrospectionObjectType): string[] {
  return type.fields.filter((f) => f.args.every((a) => a.type.kind !== 'NON_NULL') && isLeaf(unwrap(f.type).named.kind)).map((f) => f.name);
}

export function buildOrdersPage(introspection: IntrospectionQuery | null, opts: { distributorId: string; size: number }): PageOperation | string {
  if (!introspection) return 'the gateway answered no schema';
  const types = new Map<string, IntrospectionType>(introspection.__schema.types.map((t) => [t.name, t]));
  const object = (name: string) => types.get(name) as IntrospectionObjectType | undefined;
  const query = object(introspection.__schema.queryType.name);
  const field: IntrospectionField | undefined = query?.fields.find((f) => f.name === 'orders');
  if (!field) return 'no Query.orders field';

  const vars: Record<string, unknown> = {};
  const decls: string[] = [];
  const args: string[] = [];
  const filter = { distributorId: null as string | null, status: null as string | null };
  for (const arg of field.args) {
    const { named } = unwrap(arg.type);
    const input = types.get(named.name) as IntrospectionInputObjectType | undefined;
    const typeText = printRef(arg.type);
    if (input?.kind === 'INPUT_OBJECT' && /filter|where/i.test(arg.name)) {
      const names = input.inputFields.map((f) => f.name);
      const value: Record<string, unknown> = {};
      if (names.includes('distributorId')) {
        value.distributorId = opts.distributorId;
        filter.distributorId = opts.distributorId;
      }
      const missing = input.inputFields.filter((f) => f.type.kind === 'NON_NULL' && !(f.name in value) && f.defaultValue == null);
      if (missing.length) return `cannot fill required filter fields ${missing.map((f) => f.name).join(', ')}`;
      vars[arg.name] = value;
    } else if (input?.kind === 'INPUT_OBJECT' && /page|paging|pagination/i.test(arg.name)) {
      const value: Record<string, unknown> = {};
      const sizeField = input.inputFields.find((f) => /^(limit|first|size|take|pageSize|perPage)$/.test(f.name));
      if (!sizeField) return `no page size field in ${named.name}`;
      value[sizeField.name] = opts.size;
      const offsetField = input.inputFields.find((f) => /^(offset|skip)$/.test(f.name));
      if (offsetField) value[offsetField.name] = 0;
      const missing = input.inputFields.filter((f) => f.type.kind === 'NON_NULL' && !(f.name in value) && f.defaultValue == null);
      if (missing.length) return `cannot fill required page fields ${missing.map((f) => f.name).join(', ')}`;
      vars[arg.name] = value;
    } else if (/^(limit|first|take)$/.test(arg.name)) {
      vars[arg.name] = opts.size;
    } else if (arg.name === 'distributorId') {
      vars[arg.name] = opts.distributorId;
      filter.distributorId = opts.distributorId;
    } else if (arg.type.kind === 'NON_NULL' && arg.defaultValue == null) {
      return `cannot fill required argument ${arg.name}`;
    } else {
      continue;
    }
    decls.push(`$${arg.name}: ${typeText}`);
    args.push(`${arg.name}: $${arg.name}`);
  }

  // The answer: a list of orders, or a page object holding one (items / nodes / edges { node }).
  const { named: resultNamed, list } = unwrap(field.type);
  let orderType: IntrospectionObjectType | undefined;
  let wrapOpen = '';
  let wrapClose = '';
  const itemsPath = ['orders'];
  if (list) {
    orderType = object(resultNamed.name);
  } else {
    const page = object(resultNamed.name);
    const itemsField = page?.fields.find((f) => unwrap(f.type).list && ['items', 'nodes', 'data', 'results', 'orders'].includes(f.name));
    const edgesField = page?.fields.find((f) => f.name === 'edges' && unwrap(f.type).list);
    const counts = page ? page.fields.filter((f) => /^(count|totalCount|total)$/.test(f.name) && isLeaf(unwrap(f.type).named.kind)).map((f) => f.name) : [];
    if (itemsField) {
      orderType = object(unwrap(itemsField.type).named.name);
      wrapOpen = `${itemsField.name} {`;
      wrapClose = `} ${counts.join(' ')}`;
      itemsPath.push(itemsField.name);
    } else if (edgesField) {
      const edge = object(unwrap(edgesField.type).named.name);
      const node = edge?.fields.find((f) => f.name === 'node');
      if (!node) return 'edges without node';
      orderType = object(unwrap(node.type).named.name);
      wrapOpen = 'edges { node {';
      wrapClose = `} } ${counts.join(' ')}`;
      itemsPath.push('edges');
    } else {
      return `cannot find the list of orders in ${resultNamed.name}`;
    }
  }
  if (!orderType?.fields) return 'orders are not an object type';
  const investor = orderType.fields.find((f) => f.name === 'investor');
  const shareClass = orderType.fields.find((f) => f.name === 'shareClass');
  if (!investor || !shareClass) return 'Order has no investor / shareClass fields yet';
  const investorType = object(unwrap(investor.type).named.name);
  const shareClassType = object(unwrap(shareClass.type).named.name);
  if (!investorType || !shareClassType) return 'investor / shareClass are not object types';
  // Every plain field of the order and of both relations, but no further relation: the page an
  // ops console shows. Share-class leaf fields only (its nested parts are not part of the page).
  const fields = { order: leafFields(orderType), investor: leafFields(investorType), shareClass: leafFields(shareClassType) };
  const selection = `${fields.order.join(' ')} investor { ${fields.investor.join(' ')} } shareClass { ${fields.shareClass.join(' ')} }`;
  const text = `query BenchOrdersPage${decls.length ? `(${decls.join(', ')})` : ''} { orders${args.length ? `(${args.join(', ')})` : ''} { ${wrapOpen} ${selection} ${wrapClose} } }`;
  return { query: text.replace(/\s+/g, ' '), variables: vars, itemsPath, filter, fields };
}

function printRef(ref: IntrospectionTypeRef): string {
  const t: any = ref;
  if (t.kind === 'NON_NULL') return `${printRef(t.ofType)}!`;
  if (t.kind === 'LIST') return `[${printRef(t.ofType)}]`;
  return t.name;
}
