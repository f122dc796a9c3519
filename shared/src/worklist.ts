import { z } from 'zod';
import { imageSchema } from './images.js';

/**
 * Where a radiologist's analysis of a paid request stands: nothing yet, marks saved without a
 * written analysis (or an emptied note), or an analysis written.
 */
export const ANALYSIS_STATUSES = ['waiting', 'draft', 'done'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

/** One paid second-opinion request in a radiologist's worklist. */
export const worklistRequestSchema = z.object({
  invoice_uid: z.uuid(),
  item: imageSchema,
  patient: z.object({ uid: z.uuid(), full_name: z.string() }),
  paid_at: z.string(),
  /** What the patient's physician wrote on the item: the clinical question; null when nothing. */
  physician_note: z.string().nullable(),
  analysis_status: z.enum(ANALYSIS_STATUSES),
});
export type WorklistRequest = z.infer<typeof worklistRequestSchema>;

/**
 * GET /api/user/worklist: the requests still waiting or in draft, oldest paid first, then the
 * most recent finished ones (at most WORKLIST_DONE_LIMIT).
 */
export const worklistSchema = z.object({ requests: z.array(worklistRequestSchema) });
export type Worklist = z.infer<typeof worklistSchema>;

export const WORKLIST_DONE_LIMIT = 20;
