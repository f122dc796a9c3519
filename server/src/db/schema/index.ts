export * from './audit.js';
export * from './care.js';
export * from './hospitals.js';
export * from './identity.js';
export * from './images.js';
export * from './notifications.js';
export * from './payments.js';
export * from './users.js';
