import { appEnvOf } from './environment';
import { readSecretFile } from './secret-file';

/**
 * The settings that hold a secret (a password in a URL, a key, a token, a provider's credentials,
 * an RPC URL's API key). Each may instead name a file holding it, NAME_FILE (a mounted secret, a
 * systemd credential), so it is not in the environment that `/proc/<pid>/environ` shows.
 */
export const SECRET_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN', 'JWT_SIGNING_KEY', 'WEBHOOK_SECRET_KEY', 'SUPPLY_PROVIDERS', 'CHAINS'] as const;

/**
 * The environment with each NAME_FILE read into NAME: both set is a mistake (which one wins would
 * be a guess); the file's trailing newline (an editor's, `echo`'s) is not part of the secret; a file
 * that group or others may read is refused outside development and test, as every secret file is.
 */
export function withSecretFiles(env: NodeJS.ProcessEnv, problems: string[]): NodeJS.ProcessEnv {
  const resolved = { ...env };
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: set one`);
      continue;
    }
    const text = readSecretFile(`${name}_FILE`, file, appEnvOf(env), problems);
    if (text !== undefined) resolved[name] = text.replace(/\r?\n$/, '');
  }
  return resolved;
}
