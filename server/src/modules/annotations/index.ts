/** The annotations module's public entry: what other modules may use of it. */
export { annotationsOfAuthor, itemsAnnotatedBy } from './annotations.service.js';
