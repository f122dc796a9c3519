import type { StudySummary } from '@ra/shared';
import { studies } from '../../db/schema/studies.js';

/** The columns behind the API's study summary, for queries joining `studies`. */
export const STUDY_SUMMARY_COLUMNS = {
  studyInstanceUid: studies.studyInstanceUid,
  studyDate: studies.studyDate,
  studyDescription: studies.studyDescription,
  modalities: studies.modalities,
  seriesCount: studies.seriesCount,
  instanceCount: studies.instanceCount,
  patientNameInFile: studies.patientNameInFile,
  patientBirthDateInFile: studies.patientBirthDateInFile,
};

/** A row of STUDY_SUMMARY_COLUMNS. */
export interface StudySummaryRow {
  studyInstanceUid: string;
  studyDate: string | null;
  studyDescription: string;
  modalities: string[];
  seriesCount: number;
  instanceCount: number;
  patientNameInFile: string;
  patientBirthDateInFile: string | null;
}

/** A row of STUDY_SUMMARY_COLUMNS as the API's study summary. */
export function studySummaryOf(row: StudySummaryRow): StudySummary {
  return {
    study_instance_uid: row.studyInstanceUid,
    study_date: row.studyDate,
    study_description: row.studyDescription,
    modalities: row.modalities,
    series_count: row.seriesCount,
    instance_count: row.instanceCount,
    patient_name_in_file: row.patientNameInFile,
    patient_birth_date_in_file: row.patientBirthDateInFile,
  };
}
