import type { MikroORM } from '@mikro-orm/postgresql';

export type Readiness = { ready: true; migrations: number } | { ready: false; reason: string };

const CHECK_TIMEOUT_MS = 3000;

/**
 * Whether this instance can serve: the database answers and every checked-in migration is
 * applied. Unlike /api/v1/health (liveness, no backing-store work), this is for load balancers
 * and deploys.
 */
export async function checkReadiness(orm: MikroORM): Promise<Readiness> {
  const check = (async (): Promise<Readiness> => {
    try {
      await orm.em.fork().execute('select 1');
    } catch {
      return { ready: false, reason: 'database unreachable' };
    }
    try {
      const pending = await orm.migrator.getPendingMigrations();
      if (pending.length) return { ready: false, reason: `migrations pending: ${pending.map((m) => m.name).join(', ')}` };
      const executed = await orm.migrator.getExecutedMigrations();
      return { ready: true, migrations: executed.length };
    } catch {
      return { ready: false, reason: 'migrations cannot be read' };
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: 'database check timed out' }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
