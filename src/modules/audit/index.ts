import { AuditLogResolver } from './audit-log.resolver';
import { AuditLogEntry } from './audit-log.entity';
import { type ModuleManifest } from '../../access/module-manifest';
import type { AuditLog } from './audit-log';

/** The services the audit module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    audit: {
      auditLog: AuditLog;
    };
  }
}

/** The audit module's manifest, collected by src/modules/manifests.ts. */
export const auditModule: ModuleManifest<'audit'> = {
  name: 'audit',
  services: { auditLog: true },
  resolvers: [AuditLogResolver],
  entities: [AuditLogEntry],
  mutationRoles: {},
  queryRoles: {
    auditLog: 'approver',
  },
  mutationDuties: {},
  visibility: {
    AuditLogEntry: 'ops',
  },
};
