/** The notifications module's public entry: what other modules, jobs and plugins may use of it. */
export { notify, type TaggedNotifications } from './notifications.service.js';
