import type { association } from 'dcmjs-dimse';
import dimse from './dimse-library.js';

const { PresentationContextResult } = dimse.constants;

export const VERIFICATION_SOP_CLASS = '1.2.840.10008.1.1';
/** Every storage SOP class sits under this root (PS3.4 B.5, PS3.6 Annex A). */
const STORAGE_ROOT = '1.2.840.10008.5.1.4.1.1.';

const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
const IMPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2';

/** Compressed transfer syntaxes the archive files as they come: JPEG, JPEG-LS, JPEG 2000, RLE, deflate. */
const COMPRESSED = new Set([
  '1.2.840.10008.1.2.4.50',
  '1.2.840.10008.1.2.4.51',
  '1.2.840.10008.1.2.4.57',
  '1.2.840.10008.1.2.4.70',
  '1.2.840.10008.1.2.4.80',
  '1.2.840.10008.1.2.4.81',
  '1.2.840.10008.1.2.4.90',
  '1.2.840.10008.1.2.4.91',
  '1.2.840.10008.1.2.5',
  '1.2.840.10008.1.2.1.99',
]);

/**
 * The transfer syntax accepted among those proposed: the first compressed one the archive files,
 * otherwise explicit VR little endian, otherwise implicit; undefined when none of these is proposed.
 * Verification carries no dataset: implicit little endian, which every caller proposes, is preferred.
 */
export function chooseTransferSyntax(abstractSyntax: string, proposed: string[]): string | undefined {
  if (abstractSyntax === VERIFICATION_SOP_CLASS) {
    return [IMPLICIT_LITTLE_ENDIAN, EXPLICIT_LITTLE_ENDIAN].find((syntax) => proposed.includes(syntax));
  }
  return (
    proposed.find((syntax) => COMPRESSED.has(syntax)) ??
    [EXPLICIT_LITTLE_ENDIAN, IMPLICIT_LITTLE_ENDIAN].find((syntax) => proposed.includes(syntax))
  );
}

export function isStorageClass(abstractSyntax: string): boolean {
  return abstractSyntax.startsWith(STORAGE_ROOT);
}

/** Accepts Verification and storage classes in a transfer syntax of ours; rejects the rest. */
export function negotiate(request: association.Association): void {
  for (const { context } of request.getPresentationContexts()) {
    const abstractSyntax = context.getAbstractSyntaxUid();
    if (abstractSyntax !== VERIFICATION_SOP_CLASS && !isStorageClass(abstractSyntax)) {
      context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
      continue;
    }
    const syntax = chooseTransferSyntax(abstractSyntax, context.getTransferSyntaxUids());
    if (syntax) {
      context.setResult(PresentationContextResult.Accept, syntax);
    } else {
      context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
    }
  }
}
