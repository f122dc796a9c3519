import type { RoleName } from '@ra/shared';

/** Role colours of the spec: Patient green, Physician blue, Radiologist red (Bootstrap variants). */
export const ROLE_VARIANT: Record<RoleName, 'success' | 'primary' | 'danger'> = {
  Patient: 'success',
  Physician: 'primary',
  Radiologist: 'danger',
};

export function parseRoleName(value: unknown): RoleName | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const lower = value.toLowerCase();
  return (['Patient', 'Physician', 'Radiologist'] as const).find((role) => role.toLowerCase() === lower);
}
