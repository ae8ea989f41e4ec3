import { ConnectionException, DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { PostgreSqlExceptionConverter } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { fromError } from '../../rest-compat/executor';
import { isDatabaseUnavailable, toDomainError, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../src/common/errors';
import { formatError } from '../../src/transports/graphql/format-error';

/** A driver error as node-postgres, node:net or knex raise it: a message and maybe a code. */
function driverError(message: string, code?: string, name = 'Error'): Error {
  const err = new Error(message) as Error & { code?: string };
  if (code) err.code = code;
  err.name = name;
  return err;
}

/** The same error as MikroORM hands it on: converted by the PostgreSQL driver's converter (its own exceptions as they are). */
const mikroOrmWrapped = (err: Error) => (err instanceof DriverException ? err : new PostgreSqlExceptionConverter().convertException(err));

// Every shape of "the database or its connection is gone or busy" the gateway meets.
const UNAVAILABLE: Array<[string, Error]> = [
  ['57P01 admin_shutdown (pg_terminate_backend)', driverError('terminating connection due to administrator command', '57P01')],
  ['57P02 crash_shutdown', driverError('terminating connection because of crash of another server process', '57P02')],
  ['57P03 cannot_connect_now', driverError('the database system is starting up', '57P03')],
  ['57P05 idle_session_timeout', driverError('terminating connection due to idle-session timeout', '57P05')],
  ['57014 statement timeout', driverError('canceling statement due to statement timeout', '57014')],
  ['55P03 lock timeout', driverError('canceling statement due to lock timeout', '55P03')],
  ['08000 connection_exception', driverError('connection exception', '08000')],
  ['08003 connection_does_not_exist', driverError('connection does not exist', '08003')],
  ['08006 connection_failure', driverError('connection failure', '08006')],
  ['08001 unable to connect', driverError('could not connect to server', '08001')],
  ['08004 rejected connection', driverError('server rejected the connection', '08004')],
  ['08P01 protocol_violation', driverError('protocol violation', '08P01')],
  ['53300 too_many_connections', driverError('sorry, too many clients already', '53300')],
  ['55000 ALLOW_CONNECTIONS false', driverError('database "gw" is not currently accepting connections', '55000')],
  ['3D000 no such database', driverError('database "gw" does not exist', '3D000')],
  ['28000 no pg_hba entry', driverError('no pg_hba.conf entry for host "10.0.0.9", user "gw", database "gw"', '28000')],
  ['28P01 password rotated', driverError('password authentication failed for user "gw"', '28P01')],
  ['53000 insufficient_resources', driverError('insufficient resources', '53000')],
  ['53100 disk_full', driverError('could not extend file: No space left on device', '53100')],
  ['53200 out_of_memory', driverError('out of memory', '53200')],
  ['53400 configuration_limit_exceeded', driverError('configuration limit exceeded', '53400')],
  ...[
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'EHOSTDOWN',
    'ENETUNREACH',
    'ENETDOWN',
    'EAI_AGAIN',
    'ERR_SOCKET_CLOSED',
    'ERR_STREAM_DESTROYED',
  ].map((code): [string, Error] => [`socket ${code}`, driverError(`connect ${code} 127.0.0.1:5432`, code)]),
  ['node-postgres: Connection terminated unexpectedly', driverError('Connection terminated unexpectedly')],
  ['node-postgres: Connection terminated', driverError('Connection terminated')],
  ['node-postgres: Connection terminated due to connection timeout', driverError('Connection terminated due to connection timeout')],
  ['node-postgres: not queryable after a connection error', driverError('Client has encountered a connection error and is not queryable')],
  ['node-postgres: closed client', driverError('Client was closed and is not queryable')],
  ['node-postgres: connect timeout', driverError('timeout expired')],
  ['node-postgres: query read timeout', driverError('Query read timeout')],
  [
    'knex: pool acquire timeout',
    driverError('Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?', undefined, 'KnexTimeoutError'),
  ],
  ['knex: pool being destroyed', driverError('Unable to acquire a connection')],
  ['knex: a transaction whose connection died', driverError('Transaction query already complete, run with DEBUG=knex:tx for more info')],
  ['knex: query prefixed with its SQL', driverError('select 1 - Connection terminated unexpectedly')],
  ['MikroORM ConnectionException', new ConnectionException(driverError('could not connect'))],
];

describe('the error table: a database that is gone or busy answers 503, retryable', () => {
  it.each(UNAVAILABLE)('%s: raw, wrapped by MikroORM, as a cause and inside GraphQL is unavailable', (_name, err) => {
    // given the error as the driver raises it and every wrapping it reaches the error table in
    const wrapped = mikroOrmWrapped(err);
    const shapes = [
      err,
      wrapped,
      new Error('the unit of work failed', { cause: wrapped }),
      new AggregateError([err], 'all attempts failed'),
      new GraphQLError('resolver failed', { originalError: wrapped }),
    ];
    for (const shape of shapes) {
      // then each is the database being unavailable
      expect(isDatabaseUnavailable(shape)).toBe(true);
      const { error, log } = toDomainError(shape);
      expect({ code: error.code, message: error.message, http: error.httpStatus, retryAfter: error.retryAfterSeconds, log }).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: UNAVAILABLE_MESSAGE,
        http: 503,
        retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
        log: 'warn',
      });
    }
    // and MikroORM's wrapper keeps the driver's fields
    expect(wrapped).toBeInstanceOf(DriverException);
  });

  it('REST answers 503 in the envelope with Retry-After', () => {
    // when a route's operation failed on a terminated connection (GraphQL wraps the resolver's error)
    const outcome = fromError(
      new GraphQLError('x', { originalError: mikroOrmWrapped(driverError('terminating connection due to administrator command', '57P01')) }),
    );
    // then
    expect(outcome).toEqual({
      status: 503,
      body: { isError: true, errorMsg: 'service temporarily unavailable', data: {} },
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  });

  it('GraphQL answers SERVICE_UNAVAILABLE with retryAfter', () => {
    // given a resolver error whose original is a lost connection
    const error = new GraphQLError('Connection terminated unexpectedly', { path: ['order'], originalError: driverError('Connection terminated unexpectedly') });
    // when formatted
    const formatted = formatError({ message: error.message, path: ['order'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }, error);
    // then
    expect(formatted).toEqual({
      message: 'service temporarily unavailable',
      path: ['order'],
      locations: undefined,
      extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS },
    });
  });

  it.each([
    ['a unique violation stays a conflict', new UniqueConstraintViolationException(driverError('duplicate key value', '23505')), 'CONFLICT', 409],
    ['a syntax error is our bug', driverError('syntax error at or near "x"', '42601'), 'INTERNAL', 500],
    ['a division by zero is our bug', driverError('division by zero', '22012'), 'INTERNAL', 500],
    ['55000 of currval before nextval is our bug', driverError('currval of sequence "s" is not yet defined in this session', '55000'), 'INTERNAL', 500],
    ['an unforeseen failure is masked', new TypeError("Cannot read properties of undefined (reading 'id')"), 'INTERNAL', 500],
    ['a message that merely mentions a connection', new Error('the order names a terminated connection'), 'INTERNAL', 500],
  ])('%s', (_name, err, code, http) => {
    // then nothing else is mistaken for an outage
    expect(isDatabaseUnavailable(err)).toBe(false);
    const { error } = toDomainError(err);
    expect([error.code, error.httpStatus, error.retryAfterSeconds]).toEqual([code, http, undefined]);
  });
});
