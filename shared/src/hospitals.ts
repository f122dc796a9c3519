import { z } from 'zod';

export const hospitalSchema = z.object({ uid: z.uuid(), name: z.string() });
export type Hospital = z.infer<typeof hospitalSchema>;

export const hospitalListSchema = z.object({ hospitals: z.array(hospitalSchema) });
export type HospitalList = z.infer<typeof hospitalListSchema>;
