/** The access module's public entry: what other modules, jobs and plugins may use of it. */
export {
  annotationAuthorsFor,
  canAddToStudy,
  canRate,
  canRead,
  canRequestOpinion,
  canUploadFor,
  careTeamOf,
  dicomReadFilter,
  itemReadFilter,
  noteAccess,
  patientReadFilter,
  receivedItemFilter,
  requireListOf,
  requireRead,
  requireStorer,
  storeRefusalOf,
} from './access.policy.js';
