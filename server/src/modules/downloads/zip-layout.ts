import type { DicomdirPatient, DicomdirSeries, DicomdirStudy } from './dicomdir.js';
import type { DownloadInstanceRow, DownloadItemRow } from './downloads.repository.js';

/*
 * Where each stored file goes in a download ZIP (docs/api.md §12.4). DICOM files get names a
 * DICOMDIR can reference on ISO 9660 media: uppercase, at most 8 characters per component, no
 * extension — DICOM/S<study>/SE<series>/IM<instance>, numbered in a stable order. Raster images
 * go under IMAGES/ with a generated name and the extension of their type.
 */

/** One stored file as the ZIP holds it. */
export interface StoredEntry {
  path: string;
  storageKey: string;
  size: number;
  itemId: string;
}

export interface ZipLayout {
  entries: StoredEntry[];
  /** Each item's ZIP paths, in order. */
  filesOf: Map<string, string[]>;
  /** The ZIP path of each stored instance, by item and SOP Instance UID. */
  instancePath: Map<string, string>;
  /** The DICOMDIR's records; empty when the ZIP holds no DICOM file. */
  patients: DicomdirPatient[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export const instanceKey = (itemId: string, sopInstanceUid: string) => `${itemId}/${sopInstanceUid}`;

/** YYYYMMDD from a YYYY-MM-DD date, or from the day the item was stored when the files give none. */
function dicomDate(date: string | null, fallback: Date): string {
  return (date ?? fallback.toISOString().slice(0, 10)).replace(/-/g, '');
}

/**
 * The layout of these items (in the order given) and the instances of their studies (in the order
 * the repository gives: by study, series and instance). `extensionOf` names a raster type's extension.
 */
export function layOut(
  items: readonly DownloadItemRow[],
  instances: readonly DownloadInstanceRow[],
  extensionOf: (mime: string) => string,
): ZipLayout {
  const entries: StoredEntry[] = [];
  const filesOf = new Map<string, string[]>();
  const instancePath = new Map<string, string>();
  const patients = new Map<string, DicomdirPatient>();
  const instancesOf = new Map<string, DownloadInstanceRow[]>();
  for (const instance of instances) {
    instancesOf.set(instance.itemId, [...(instancesOf.get(instance.itemId) ?? []), instance]);
  }
  let studyNumber = 0;
  let imageNumber = 0;
  for (const item of items) {
    const files: string[] = [];
    filesOf.set(item.id, files);
    if (item.kind === 'image' || !item.study) {
      imageNumber += 1;
      const path = `IMAGES/IMG${pad(imageNumber, 5)}.${extensionOf(item.contentType)}`;
      entries.push({ path, storageKey: item.storageKey, size: item.size, itemId: item.id });
      files.push(path);
      continue;
    }
    const studyInstances = instancesOf.get(item.id) ?? [];
    if (studyInstances.length === 0) {
      continue;
    }
    studyNumber += 1;
    const studyDir = `DICOM/S${pad(studyNumber, 4)}`;
    const series: DicomdirSeries[] = [];
    const seriesDirs = new Map<string, { dir: string; series: DicomdirSeries }>();
    for (const instance of studyInstances) {
      let current = seriesDirs.get(instance.seriesInstanceUid);
      if (!current) {
        const number = seriesDirs.size + 1;
        current = {
          dir: `${studyDir}/SE${pad(number, 4)}`,
          series: {
            seriesInstanceUid: instance.seriesInstanceUid,
            modality: instance.modality,
            seriesNumber: instance.seriesNumber ?? number,
            images: [],
          },
        };
        seriesDirs.set(instance.seriesInstanceUid, current);
        series.push(current.series);
      }
      const index = current.series.images.length + 1;
      const path = `${current.dir}/IM${pad(index, 6)}`;
      current.series.images.push({
        path,
        sopClassUid: instance.sopClassUid,
        sopInstanceUid: instance.sopInstanceUid,
        transferSyntaxUid: instance.transferSyntaxUid,
        instanceNumber: instance.instanceNumber ?? index,
      });
      entries.push({ path, storageKey: instance.storageKey, size: instance.size, itemId: item.id });
      instancePath.set(instanceKey(item.id, instance.sopInstanceUid), path);
      files.push(path);
    }
    const study: DicomdirStudy = {
      studyInstanceUid: item.study.studyInstanceUid,
      studyDate: dicomDate(item.study.studyDate, item.createdAt),
      studyTime: item.study.studyTime,
      studyDescription: item.study.studyDescription,
      accessionNumber: item.study.accessionNumber,
      studyId: item.study.studyId || String(studyNumber),
      series,
    };
    // The files' own patient: one PATIENT record per Patient ID they give (the archive's uid when none).
    const patientId = item.study.patientIdInFile || item.patientId;
    const patient = patients.get(patientId) ?? {
      patientId,
      patientName: item.study.patientNameInFile,
      studies: [],
    };
    patient.studies.push(study);
    patients.set(patientId, patient);
  }
  return { entries, filesOf, instancePath, patients: [...patients.values()] };
}
