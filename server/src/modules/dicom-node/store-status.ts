import { STUDY_MESSAGES } from '@ra/shared';
import { READ_LIMIT_MESSAGES } from '../dicom/index.js';

/** C-STORE statuses (PS3.4 B.2.3, PS3.7 C). */
export const STORE_STATUS = {
  success: 0x0000,
  outOfResources: 0xa700,
  cannotUnderstand: 0xc000,
  processingFailure: 0x0110,
} as const;

/** The same reasons to status as STOW-RS's failure reasons; any other refusal is "cannot understand". */
const STATUS_OF_REASON: Record<string, number> = {
  [STUDY_MESSAGES.metadataTooLarge]: STORE_STATUS.outOfResources,
  [READ_LIMIT_MESSAGES.inflatesTooLarge]: STORE_STATUS.outOfResources,
  [READ_LIMIT_MESSAGES.tooManyElements]: STORE_STATUS.outOfResources,
  [STUDY_MESSAGES.storageFull]: STORE_STATUS.outOfResources,
  [STUDY_MESSAGES.processingFailed]: STORE_STATUS.processingFailure,
};

export function statusOfRefusal(reason: string): number {
  return STATUS_OF_REASON[reason] ?? STORE_STATUS.cannotUnderstand;
}
