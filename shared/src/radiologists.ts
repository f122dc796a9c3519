import { z } from 'zod';

export const DEFAULT_FEE_DOLLARS = 150;

export const meetRadiologistSchema = z.object({
  uid: z.uuid(),
  title: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  expertise: z.string(),
  profile_image_url: z.string().nullable(),
});
export type MeetRadiologist = z.infer<typeof meetRadiologistSchema>;

export const meetRadiologistListSchema = z.object({
  radiologists: z.array(meetRadiologistSchema),
});

export const radiologistSchema = meetRadiologistSchema.extend({
  bio: z.string(),
  years_of_exp: z.number().int(),
  average_rating: z.number().nullable(),
  rating_count: z.number().int(),
  allow_ratings: z.boolean(),
  fee: z.number(),
});
export type Radiologist = z.infer<typeof radiologistSchema>;

export const radiologistListSchema = z.object({ radiologists: z.array(radiologistSchema) });
