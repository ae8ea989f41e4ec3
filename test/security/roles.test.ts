import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { guardOpsRoles } from '../../src/transports/graphql/ops-guard';
import { OPS_RULES } from '../../src/modules/manifests';

const OPS_MUTATION_ROLES = OPS_RULES.mutationRoles as Record<string, OpsRole>;
import { hasRole, OPS_ROLES, type OpsRole } from '../../src/access/principal';
import { rawRows } from '../../src/persistence/raw-query';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * Roles (src/access/ops-roles.ts), walked over every mutation of the schema with a token of each
 * role: a role without the field's rule is refused before anything runs (403 `the <role> role is
 * required`), one with it gets past the rule (whatever the service then answers of the dummy
 * arguments); every one of those calls is a row of the audit log under its principal.
 */

/** A value of `type` that passes GraphQL's own validation (the services may refuse it). */
function dummy(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return dummy(type.ofType);
  if (isListType(type)) return [dummy(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
        .map((f) => [f.name, dummy(f.type)]),
    );
  }
  if (isScalarType(type)) {
    const byName: Record<string, unknown> = { Int: 1, Float: 1, Boolean: false, EpochMs: 0, Decimal: '1', JSONObject: {} };
    return type.name in byName ? byName[type.name] : 'x';
  }
  return 'x';
}

/** `mutation` calling `field` with its required arguments as variables, selecting `__typename` of an object. */
function callOf(field: GraphQLField<unknown, unknown>): { query: string; variables: Record<string, unknown> } {
  const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const defs = required.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = required.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  return {
    query: `mutation${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`,
    variables: Object.fromEntries(required.map((a) => [a.name, dummy(a.type)])),
  };
}

const MUTATIONS = Object.values(gatewaySchema().getMutationType()!.getFields())
  // Rotating its own token ends the walk of that token: last.
  .sort((a, b) => Number(a.name === 'rotateOpsToken') - Number(b.name === 'rotateOpsToken'));

describe('Ops roles, on every mutation of the schema', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('every mutation has a role rule, and the rules name only mutations', () => {
    expect(MUTATIONS.map((f) => f.name).sort()).toEqual(Object.keys(OPS_MUTATION_ROLES).sort());
  });

  it('a schema with a mutation that has no role rule does not build', () => {
    const fields = Object.keys(OPS_MUTATION_ROLES)
      .map((name) => `${name}: Int`)
      .join(' ');
    const schema = buildSchema(`type Query { auditLog: Int } type Mutation { ${fields} forcedTransfer: Int }`);
    expect(() => guardOpsRoles(schema)).toThrow(
      'ops role and duty rules are incomplete:\n- mutation forcedTransfer has no role rule (the index.ts of the module that defines it)\n- mutation forcedTransfer has no duty line (the index.ts of the module that defines it)',
    );
    // A module's mutation without its rule names the module's front door to edit.
    const role = OPS_MUTATION_ROLES.publishNav;
    delete OPS_MUTATION_ROLES.publishNav;
    try {
      expect(() => guardOpsRoles(buildSchema(`type Query { auditLog: Int } type Mutation { ${fields} }`))).toThrow(
        'ops role and duty rules are incomplete:\n- mutation publishNav has no role rule (src/modules/nav/index.ts)',
      );
    } finally {
      OPS_MUTATION_ROLES.publishNav = role;
    }
  });

  it.each(OPS_ROLES.map((r) => [r]))(
    'a %s token is refused exactly the mutations its role does not reach; each call is in the audit log',
    async (role: OpsRole) => {
      const token = await gw.opsTokenAs(`walker-${role}`, [role]);
      const refused: string[] = [];
      for (const field of MUTATIONS) {
        const { query, variables } = callOf(field);
        const res = await gw.graphql(query, variables, { token });
        const error = res.body.errors?.[0];
        const denied = error?.message === `the ${OPS_MUTATION_ROLES[field.name]} role is required` && error.extensions?.code === 'FORBIDDEN';
        if (denied) refused.push(field.name);
      }
      const expected = MUTATIONS.filter((f) => !hasRole([role], OPS_MUTATION_ROLES[f.name])).map((f) => f.name);
      expect(refused).toEqual(expected);
      if (role === 'viewer') expect(refused).toEqual(expect.arrayContaining(['requestWalletRecovery', 'approveRequest', 'issueOpsToken', 'publishNav']));
      if (role === 'admin') expect(refused).toEqual([]);

      const logged = await rawRows<{ operation: string; outcome: string; error_code: string | null }>(
        gw.em(),
        'select operation, outcome, error_code from audit_log where principal = ? order by id',
        [`ops:walker-${role}`],
      );
      expect(logged.map((r) => r.operation)).toEqual(MUTATIONS.map((f) => f.name));
      expect(logged.filter((r) => r.error_code === 'FORBIDDEN' && refused.includes(r.operation)).map((r) => r.operation)).toEqual(refused);
    },
  );

  it('me answers the caller and its roles', async () => {
    const token = await gw.opsTokenAs('desk', ['operator', 'approver']);
    const res = await gw.graphql('{ me { kind principal name roles } }', {}, { token });
    expect(res.body.data!.me).toEqual({ kind: 'ops', principal: 'ops:desk', name: 'desk', roles: ['operator', 'approver'] });
  });

  it('over graphql-ws a write records the principal of the connection, never a claimed actor', async () => {
    // given an operator connected over graphql-ws, claiming another actor in its connection parameters
    const em = gw.em();
    const m = await aMarket(em, gw.clock.now());
    await aHolding(em, m.investor, m.shareClass, '10');
    const token = await gw.opsTokenAs('socket-desk', ['operator']);
    const client = createClient({
      url: `ws://127.0.0.1:${gw.port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}`, 'x-actor': 'ops:someone-else' },
      retryAttempts: 0,
    });
    try {
      // when it requests an adjustment
      const data = await new Promise<any>((resolve, reject) => {
        client.subscribe(
          {
            query: `mutation($i: HoldingAdjustmentInput!) { requestHoldingAdjustment(input: $i) { id requestedBy } }`,
            variables: { i: { investorId: m.investor.id, shareClassId: m.shareClass.id, quantity: '1', reason: 'socket' } },
          },
          { next: (r) => (r.errors ? reject(new Error(JSON.stringify(r.errors))) : resolve(r.data)), error: reject, complete: () => undefined },
        );
      });
      // then the request and the audit log name the connection's principal
      expect(data.requestHoldingAdjustment.requestedBy).toBe('ops:socket-desk');
      const [entry] = await rawRows<{ principal: string }>(gw.em(), `select principal from audit_log where operation = 'requestHoldingAdjustment'`, []);
      expect(entry).toEqual({ principal: 'ops:socket-desk' });
    } finally {
      await client.dispose();
    }
  });
});
