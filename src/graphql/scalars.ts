import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isDecimalLiteral, decimalString } from '../common/money';

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
    if (typeof value === 'number' && Number.isSafeInteger(value)) return new Date(value);
    if (typeof value === 'string' && /^\d+$/.test(value)) return new Date(Number(value));
    throw new GraphQLError('EpochMs must be an integer number of milliseconds');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || (ast.kind === Kind.STRING && /^\d+$/.test(ast.value))) return new Date(Number(ast.value));
    throw new GraphQLError('EpochMs must be an integer number of milliseconds');
  },
});

/** An exact decimal, carried as a string so no binary float ever touches money. */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number as a string, e.g. "1234.5678".',
  serialize(value) {
    if (typeof value === 'string' || typeof value === 'number') return decimalString(value);
    if (value && typeof (value as { toFixed?: unknown }).toFixed === 'function') return decimalString(value as never);
    throw new GraphQLError('Decimal cannot represent this value');
  },
  parseValue(value) {
    if (isDecimalLiteral(value)) return decimalString(value as string | number);
    throw new GraphQLError('Decimal must be a decimal number or a string of one');
  },
  parseLiteral(ast) {
    if ((ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) && isDecimalLiteral(ast.value)) {
      return decimalString(ast.value);
    }
    throw new GraphQLError('Decimal must be a decimal number or a string of one');
  },
});
