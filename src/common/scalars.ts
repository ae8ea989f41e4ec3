import type Decimal from 'decimal.js';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { fitsDecimalColumns, isDecimalLiteral, decimalString, MAX_INTEGER_DIGITS } from './money';
import { MAX_EPOCH_MS } from './validate';

/** A point in time from epoch ms, within what every layer can write (`MAX_EPOCH_MS`). */
function epochDate(ms: number): Date {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_EPOCH_MS) throw new GraphQLError(`EpochMs must be epoch milliseconds from 0 to ${MAX_EPOCH_MS}`);
  return new Date(ms);
}

/** A decimal that fits the `numeric(38,18)` columns, as a canonical string. */
function columnDecimal(value: string | number): string {
  if (!fitsDecimalColumns(value)) throw new GraphQLError(`Decimal is out of range (at most ${MAX_INTEGER_DIGITS} digits before the point)`);
  return decimalString(value);
}

/** Epoch milliseconds, UTC: the description's timestamp format. Beyond Int's 32 bits. */
export const EpochMs = new GraphQLScalarType<Date, number>({
  name: 'EpochMs',
  description: 'A point in time as epoch milliseconds (UTC).',
  serialize(value) {
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
    throw new GraphQLError('EpochMs cannot represent a non-date value');
  },
  parseValue(value) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return epochDate(value);
    if (typeof value === 'string' && /^\d+$/.test(value)) return epochDate(Number(value));
    throw new GraphQLError('EpochMs must be an integer number of milliseconds');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || (ast.kind === Kind.STRING && /^\d+$/.test(ast.value))) return epochDate(Number(ast.value));
    throw new GraphQLError('EpochMs must be an integer number of milliseconds');
  },
});

/** An exact decimal, carried as a string so no binary float ever touches money. */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number as a string, e.g. "1234.5678".',
  serialize(value) {
    if (typeof value === 'string' || typeof value === 'number') return decimalString(value);
    if (value && typeof (value as { toFixed?: unknown }).toFixed === 'function') return decimalString(value as Decimal);
    throw new GraphQLError('Decimal cannot represent this value');
  },
  parseValue(value) {
    if (isDecimalLiteral(value)) return columnDecimal(value as string | number);
    throw new GraphQLError('Decimal must be a decimal number or a string of one');
  },
  parseLiteral(ast) {
    if ((ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) && isDecimalLiteral(ast.value)) {
      return columnDecimal(ast.value);
    }
    throw new GraphQLError('Decimal must be a decimal number or a string of one');
  },
});
