/** The incoming module's public entry: what other modules, jobs and plugins may use of it. */
export { refileLegacyIncoming } from './incoming.service.js';
