import {
  displayName,
  physicianNoteOf,
  WORKLIST_DONE_LIMIT,
  type AnalysisStatus,
  type Worklist,
  type WorklistRequest,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { permitted } from '../access/index.js';
import { itemsAnnotatedBy } from '../annotations/index.js';
import { notesOfAuthor, presentItems } from '../archive-items/index.js';
import { auditReads } from '../audit/index.js';
import * as repo from './invoices.repository.js';

type PaidInvoice = Awaited<ReturnType<typeof repo.listPaidInvoicesOf>>[number];

/**
 * A radiologist's paid second-opinion requests: those still waiting or in draft, oldest paid
 * first (the longest-waiting patient on top), then the most recent finished ones. Each shows the
 * item as the radiologist may read it and the physician's note on it, the clinical question.
 */
export async function worklistOf(ctx: AppContext, radiologist: Actor, ip: string): Promise<Worklist> {
  const paid = await repo.listPaidInvoicesOf(ctx.db, radiologist.id);
  const readable = await permitted(
    ctx,
    radiologist,
    'item:read',
    paid.map((invoice) => invoice.itemId),
  );
  const invoices = paid.filter((invoice) => readable.has(invoice.itemId));
  const itemIds = [...new Set(invoices.map((invoice) => invoice.itemId))];
  const [notes, annotated] = await Promise.all([
    notesOfAuthor(ctx, radiologist.id, itemIds),
    itemsAnnotatedBy(ctx, radiologist.id, itemIds),
  ]);
  const statusOf = (itemId: string): AnalysisStatus =>
    notes.get(itemId) ? 'done' : notes.has(itemId) || annotated.has(itemId) ? 'draft' : 'waiting';

  const open = invoices.filter((invoice) => statusOf(invoice.itemId) !== 'done');
  const done = invoices
    .filter((invoice) => statusOf(invoice.itemId) === 'done')
    .reverse()
    .slice(0, WORKLIST_DONE_LIMIT);
  const shown = [...open, ...done];
  const items = await presentItems(
    ctx,
    radiologist,
    shown.map((invoice) => invoice.itemId),
  );
  const requests = shown.flatMap((invoice) => {
    const item = items.get(invoice.itemId);
    return item ? [toRequest(invoice, item, statusOf(invoice.itemId))] : [];
  });
  const patients = [...new Set(requests.map((request) => request.patient.uid))];
  await auditReads(
    ctx,
    patients.map((patientId) => ({
      actorId: radiologist.id,
      patientId,
      action: 'read' as const,
      recordType: 'image-list',
      recordId: patientId,
      ip,
    })),
  );
  return { requests };
}

function toRequest(
  invoice: PaidInvoice,
  item: WorklistRequest['item'],
  status: AnalysisStatus,
): WorklistRequest {
  return {
    invoice_uid: invoice.id,
    item,
    patient: {
      uid: invoice.patientId,
      full_name: displayName({
        title: invoice.patientTitle,
        first_name: invoice.patientFirstName,
        last_name: invoice.patientLastName,
      }),
    },
    paid_at: invoice.paidAt.toISOString(),
    physician_note: physicianNoteOf(item),
    analysis_status: status,
  };
}
