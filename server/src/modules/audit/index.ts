/** The audit module's public entry: what other modules, jobs and plugins may use of it. */
export {
  auditChange,
  auditChangeSql,
  auditOwnProfileChange,
  auditReads,
  createReadAuditWriter,
  type AuditEntry,
} from './audit.service.js';
export {
  findPatientForAuditTrail,
  listPatientAuditTrail,
  type PatientAuditTrailRow,
} from './audit.service.js';
