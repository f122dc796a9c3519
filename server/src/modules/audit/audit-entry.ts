export type AuditAction = 'read' | 'create' | 'update' | 'delete' | 'download';
export type AuditRecord =
  | 'patient'
  | 'image'
  | 'image-list'
  | 'note'
  | 'file'
  | 'patient-list'
  | 'profile'
  | 'annotation'
  | 'annotation-list'
  | 'reported-annotation-list'
  /** A share link: made, revoked (changes), and opened (a read with the link as the actor). */
  | 'share'
  | 'dicom-node';

/** One row of the append-only audit log: who did what to which record, from where. */
export interface AuditEntry {
  actorId: string | null;
  patientId: string | null;
  action: AuditAction;
  recordType: AuditRecord;
  recordId: string;
  ip: string | null;
}
