import { z } from 'zod';
import { LIMITS } from './fields.js';

/** The fields a physician fills in for any new archive item, image or study (upload-image, upload-study). */
export const newItemFields = {
  patient: z
    .string({ error: 'Please choose a patient.' })
    .trim()
    .min(1, { error: 'Please choose a patient.' }),
  notes: z
    .string({ error: 'Notes must be text.' })
    .trim()
    .max(LIMITS.text, { error: 'Notes is too long.' })
    .optional()
    .default(''),
  recommendation: z.string().trim().nullable().optional(),
};
