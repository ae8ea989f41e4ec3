import { AuditLogResolver } from './audit-log.resolver';
import { AuditLogEntry } from './audit-log.entity';
import { type ModuleManifest } from '../../access/module-manifest';

/** The audit module's manifest, collected by src/modules/manifests.ts. */
export const auditModule: ModuleManifest = {
  name: 'audit',
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
