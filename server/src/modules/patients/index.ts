/** The patients module's public entry: what other modules, jobs and plugins may use of it. */
export { findPhysicianOf } from './patients.service.js';
