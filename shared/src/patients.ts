import { z } from 'zod';
import { emailField, isPastIsoDate, LIMITS } from './fields.js';
import { imageSchema } from './images.js';

export const IMAGES_PER_PATIENT_CARD = 12;

const optionalName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(LIMITS.name, { error: `${label} is too long.` })
    .optional()
    .default('');

/** Names and date of birth are needed only when the email has no account yet (the service checks). */
export const addPatientBodySchema = z.object({
  email: emailField(),
  first_name: optionalName('First name'),
  last_name: optionalName('Last name'),
  dob: z
    .string({ error: 'Date of birth must be a real date in the past' })
    .trim()
    .optional()
    .default('')
    .refine((value) => value === '' || isPastIsoDate(value), {
      error: 'Date of birth must be a real date in the past',
    }),
});
export type AddPatientBody = z.input<typeof addPatientBodySchema>;

export const addPatientResponseSchema = z.object({ success: z.literal(true), msg: z.string() });

export const patientSchema = z.object({
  uid: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  dob: z.string(),
  profile_image_url: z.string().nullable(),
  image_count: z.number().int(),
  images: z.array(imageSchema),
});
export type Patient = z.infer<typeof patientSchema>;

export const patientPageSchema = z.object({
  patients: z.array(patientSchema),
  next_cursor: z.string().nullable(),
});
export type PatientPage = z.infer<typeof patientPageSchema>;
