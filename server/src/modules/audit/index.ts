/** The audit module's public entry: what other modules, jobs and plugins may use of it. */
export {
  auditChange,
  auditOwnProfileChange,
  auditReads,
  auditRepeatedReads,
  auditRowOf,
  type AuditEntry,
} from './audit.service.js';
export { ReadAuditWriter } from './read-audit-writer.js';
export {
  findPatientForAuditTrail,
  listPatientAuditTrail,
  type PatientAuditTrailRow,
} from './audit.service.js';
