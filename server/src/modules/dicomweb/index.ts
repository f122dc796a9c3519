/** The dicomweb module's public entry: what other modules may use of it. */
export { dicomwebReadRoutes, type DicomwebReadMount } from './dicomweb.routes.js';
export { wadoFrameRoutes } from './wado-retrieve.routes.js';
export type { DicomReader } from './dicomweb.service.js';
export { InstanceRowsCache } from './instance-rows-cache.js';
