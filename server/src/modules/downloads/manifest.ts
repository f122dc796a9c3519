import { displayName, type DownloadManifest, type Image } from '@ra/shared';
import { instanceKey, type ZipLayout } from './zip-layout.js';

/**
 * archive.json's facts (docs/api.md §12.4): the patient, then each item with its files in the ZIP
 * and the notes the caller may read, key images pointing at the ZIP files that hold their frames.
 * Nothing in it changes from one request to the next unless the records do (no signed URLs, no
 * time of the request), so the same records give the same ZIP bytes.
 */
export function manifestOf(
  scope: 'item' | 'archive',
  patient: { uid: string; firstName: string; lastName: string; dob: string | null },
  items: readonly Image[],
  layout: ZipLayout,
): DownloadManifest {
  return {
    format: 'radiology-archive-download/1',
    patient: {
      uid: patient.uid,
      full_name: displayName({ title: '', first_name: patient.firstName, last_name: patient.lastName }),
      dob: patient.dob,
    },
    scope,
    items: items.map((item) => ({
      uid: item.uid,
      kind: item.kind,
      created_at: item.createdAt,
      uploaded_by: displayName({
        title: item.uploadedBy_title,
        first_name: item.uploadedBy_first_name,
        last_name: item.uploadedBy_last_name,
      }),
      study: item.study,
      files: layout.filesOf.get(item.uid) ?? [],
      notes: item.authors.map((author) => ({
        role: author.role,
        full_name: author.full_name,
        note: author.note,
        recommendation: author.recommendation,
        key_images: author.key_images.map((keyImage) => ({
          sop_instance_uid: keyImage.sop_instance_uid,
          frame: keyImage.frame,
          window: { center: keyImage.window.center, width: keyImage.window.width },
          series_number: keyImage.series_number,
          instance_number: keyImage.instance_number,
          file: layout.instancePath.get(instanceKey(item.uid, keyImage.sop_instance_uid)) ?? null,
        })),
        updated_at: author.updatedAt,
      })),
    })),
    dicomdir: layout.patients.length > 0 ? 'DICOMDIR' : null,
  };
}
