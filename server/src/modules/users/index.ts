/** The users module's public entry: what other modules, jobs and plugins may use of it. */
export {
  MAX_PICTURE_PIXELS,
  PICTURE_CROP_SIZE,
  pictureCropKey,
  privatePictureUrl,
} from './profile-picture.js';
export { createRadiologist } from './radiologist-accounts.service.js';
export { findRadiologist } from './users.service.js';
export { pictureSweepJob } from './picture-sweep.job.js';
export { PROFILE_PICTURE_JOB, profilePictureJob } from './profile-picture.job.js';
