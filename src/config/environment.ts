/**
 * The environments that may run on the public development keys and show demo data, printed
 * secrets, Apollo Sandbox and introspection: `development` (`npm start`) and `test` (the suite).
 * Every other APP_ENV (`staging`, `prod`, `production`, …) fails closed.
 */
export function isDevelopmentEnv(env: string): boolean {
  return env === 'development' || env === 'test';
}

/** A configuration the gateway refuses to start with; its message names every mistake. */
export class ConfigError extends Error {}

/** Reads an integer setting within bounds, noting a mistake instead of throwing (every mistake is reported at once). */
export type IntSetting = (name: string, fallback: number, min: number, max: number) => number;

/** A protection that only development and test may turn off. */
export function requiredOutsideDevelopment(on: boolean, name: string, appEnv: string, problems: string[]): true {
  if (!on) problems.push(`${name} cannot be turned off when APP_ENV is ${appEnv} (only development and test may)`);
  return true;
}

/** APP_ENV as the gateway runs it: unset is production (fail closed); only an explicit development or test is not. */
export function appEnvOf(env: NodeJS.ProcessEnv): string {
  return env.APP_ENV?.trim() || 'production';
}
