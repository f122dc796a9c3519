export * from './care.js';
export * from './hospitals.js';
export * from './identity.js';
export * from './users.js';
