/** The audit module's public entry: what other modules, jobs and plugins may use of it. */
export {
  auditChange,
  auditOwnProfileChange,
  auditReads,
  auditRowOf,
  createReadAuditWriter,
  type AuditEntry,
} from './audit.service.js';
export {
  findPatientForAuditTrail,
  listPatientAuditTrail,
  type PatientAuditTrailRow,
} from './audit.service.js';
