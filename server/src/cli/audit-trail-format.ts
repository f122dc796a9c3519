import { displayName, toRoleName } from '@ra/shared';
import type { PatientAuditTrailRow } from '../modules/audit/index.js';

const NONE = '—';

/** One tab-separated line: time, actor, action, record type, record id, IP. */
export function formatAuditTrailLine(row: PatientAuditTrailRow): string {
  const actor = row.actor
    ? `${displayName({ title: row.actor.title, first_name: row.actor.firstName, last_name: row.actor.lastName })} (${toRoleName(row.actor.role)}, ${row.actor.email})`
    : NONE;
  return [row.createdAt.toISOString(), actor, row.action, row.recordType, row.recordId, row.ip ?? NONE].join(
    '\t',
  );
}
