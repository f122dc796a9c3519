/** The downloads module's public entry: what other modules may use of it (a share link's ZIP route). */
export { itemZip, type DownloadRequest, type ZipAnswer, type ZipReader } from './downloads.service.js';
export { downloadRequestOf, sendZip } from './zip-answer.js';
