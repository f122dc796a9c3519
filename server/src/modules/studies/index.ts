/** The studies module's public entry: what other modules, jobs and plugins may use of it. */
export {
  partitionReads,
  readDicomFile,
  type DicomFile,
  type FileRead,
  type RefusedFile,
} from './dicom-file-read.js';
export { dicomPartReaders } from './dicom-part-readers.js';
export { earlyBundleReads } from './early-bundle-reads.js';
export { groupByStudy, type FiledStudy, type FilingTarget, type StudyFiles } from './filing-target.js';
export { guardNames, guardPatient, knownFilingOf } from './patient-guard.js';
export {
  fileOneStudy,
  StaleFiling,
  type FilingContext,
  storageBudget,
  storageBudgetAfter,
  type StorageBudget,
} from './study-filing.js';
export {
  fileGeneratedInstance,
  removeSeriesInstances,
  studyForDocuments,
  type StudyForDocuments,
} from './generated-instances.js';
export { receivingTarget } from './study-routing.js';
export { makeWorkDir, makeWorkFiles, removeStaleWorkDirs, removeWorkDir } from './work-dirs.js';
export {
  fileReceivedStudy,
  findReceivedStudy,
  listReceivedStudies,
  peopleInStudy,
} from './received-studies.service.js';
export { STUDY_PREVIEW_JOB, studyPreviewJob } from './study-preview.job.js';
export { thumbnailSweepJob } from './thumbnail-sweep.job.js';
export { workDirCleanupJob } from './work-dir-cleanup.job.js';
export { removedFilesJob } from './removed-files.job.js';
export { structuredReportsOf, type StoredStructuredReport } from './structured-reports.js';
export { storedInstancesOf } from './stored-instances.js';
