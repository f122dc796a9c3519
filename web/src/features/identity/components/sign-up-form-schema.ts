import { z } from 'zod';
import { signupFieldsSchema } from '@ra/shared';

/** The sign-up form: the shared rules plus the date of birth as month, day and year. */
export const signUpFormSchema = signupFieldsSchema
  .pick({ title: true, first_name: true, last_name: true, email: true, password: true })
  .extend({
    role: z.enum(['PATIENT', 'PHYSICIAN'], { error: 'Role is required' }),
    hospital: z.string(),
    month: z.string().min(1, { error: 'Month is required' }),
    day: z
      .string()
      .trim()
      .min(1, { error: 'Day is required' })
      .regex(/^(0?[1-9]|[12]\d|3[01])$/, { error: 'Day must be a number from 1 to 31' }),
    year: z
      .string()
      .trim()
      .min(1, { error: 'Year is required' })
      .length(4, { error: 'Year must be 4 digits' }),
  })
  .refine((form) => form.role !== 'PHYSICIAN' || form.hospital !== '', {
    error: 'Hospital is required for physicians',
    path: ['hospital'],
    // Report it together with the other fields' errors, not only once they are fixed.
    when: () => true,
  });

export type SignUpFormInput = z.input<typeof signUpFormSchema>;
export type SignUpFormOutput = z.output<typeof signUpFormSchema>;
