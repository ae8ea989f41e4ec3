import { readFileSync, statSync } from 'node:fs';
import { logger } from '../common/logger';
import { isDevelopmentEnv } from './environment';

/**
 * Reads a file holding a secret (an agent key, a TLS private key). One that group or others may
 * read is refused outside development and test (any local user could take the key), and warned
 * about there. Returns undefined when it cannot be read; every mistake lands in `problems`.
 */
export function readSecretFile(name: string, file: string, appEnv: string, problems: string[]): string | undefined {
  let text: string;
  let mode: number;
  try {
    text = readFileSync(file, 'utf8');
    mode = statSync(file).mode & 0o777;
  } catch {
    problems.push(`${name} cannot be read: "${file}"`);
    return undefined;
  }
  if (mode & 0o077) {
    const why = `${name} "${file}" is readable by others than its owner (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 it`;
    if (isDevelopmentEnv(appEnv)) logger.warn(why);
    else problems.push(why);
  }
  return text;
}
