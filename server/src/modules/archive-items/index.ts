/** The archive-items module's public entry: what other modules, jobs and plugins may use of it. */
export {
  analysisOf,
  announceNewItem,
  checkRecommendation,
  noteAuthorsOf,
  notesOfAuthor,
  presentItemForLink,
  presentItems,
  recordNewItem,
  summarizeItems,
  summarizeImagesOfPatients,
  thumbnailUrlOf,
  type Uploader,
} from './archive-items.service.js';
export { areFramesOfStudy, instancesOfStudy, type FrameReference } from './study-frames.js';
export { STUDY_SUMMARY_COLUMNS, studySummaryOf } from './study-summary.js';
export { itemsWithoutThumbnail } from './archive-items.service.js';
export { THUMBNAIL_JOB, thumbnailJob } from './thumbnail.job.js';
