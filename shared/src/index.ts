export * from './errors.js';
export * from './fields.js';
export * from './health.js';
export * from './hospitals.js';
export * from './identity.js';
export * from './radiologists.js';
export * from './roles.js';
