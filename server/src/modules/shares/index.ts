/** The shares module's public entry: what other modules, jobs and plugins may use of it. */
export { ShareNotAvailable } from './shares.service.js';
