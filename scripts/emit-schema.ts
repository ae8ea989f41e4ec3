/** Writes the schema's SDL to schema/schema.graphql (checked in; a test fails when it drifts). */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { printSchema } from 'graphql';
import { gatewaySchema } from '../src/transports/graphql/schema';

/** The package root: the nearest folder up with a package.json (this file runs from scripts/ under ts-jest, from dist/scripts/ when built). */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const SCHEMA_FILE = join(packageRoot(__dirname), 'schema', 'schema.graphql');

export function schemaSdl(): string {
  return printSchema(gatewaySchema()) + '\n';
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaSdl());
  console.log(`wrote ${SCHEMA_FILE}`);
}
