import { z } from 'zod';

/** Roles as stored and as used inside image authors and staff lists. */
export const ROLES = ['PATIENT', 'PHYSICIAN', 'RADIOLOGIST'] as const;
export type Role = (typeof ROLES)[number];

/** Roles as the web app and `/api/user/me` name them. */
export const ROLE_NAMES = ['Patient', 'Physician', 'Radiologist'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const NAME_BY_ROLE: Record<Role, RoleName> = {
  PATIENT: 'Patient',
  PHYSICIAN: 'Physician',
  RADIOLOGIST: 'Radiologist',
};

export function toRoleName(role: Role): RoleName {
  return NAME_BY_ROLE[role];
}

export function toRole(name: RoleName): Role {
  return name.toUpperCase() as Role;
}

/** Accepts a role name in any letter case, e.g. `patient`, `Patient`, `PATIENT`. */
export function roleNameSchema(message: string) {
  return z
    .string({ error: message })
    .trim()
    .transform((value) => value.charAt(0).toUpperCase() + value.slice(1).toLowerCase())
    .pipe(z.enum(ROLE_NAMES, { error: message }));
}
