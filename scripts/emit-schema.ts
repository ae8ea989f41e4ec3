/** Writes the schema's SDL to schema/schema.graphql (checked in; a test fails when it drifts). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { gatewaySchema } from '../src/graphql/schema';

export const SCHEMA_FILE = join(__dirname, '..', '..', 'schema', 'schema.graphql');

export function schemaSdl(): string {
  return printSchema(gatewaySchema()) + '\n';
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaSdl());
  console.log(`wrote ${SCHEMA_FILE}`);
}
