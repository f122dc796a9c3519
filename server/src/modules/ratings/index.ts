/** The ratings module's public entry: what other modules, jobs and plugins may use of it. */
export { ratingSummaries } from './ratings.service.js';
