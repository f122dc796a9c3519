/** The identity module's public entry: what other modules, jobs and plugins may use of it. */
export { createAccount, findAccountByEmail } from './accounts.service.js';
export { changeEmail } from './email-change.service.js';
export { toMe } from './identity.service.js';
export { hashPassword, verifyPassword } from './password-hash.js';
export {
  detailsMatch,
  reclaimUnverifiedPatient,
  sendPatientInvitation,
  type PatientDetails,
} from './patient-accounts.service.js';
export { checkSessionActivity } from './session.service.js';
export { SigningKeys } from './signing-keys.js';
export { findExposedDemoAccounts, isLoopbackHost, shouldSeedDemo } from './demo-exposure.js';
export { accountExists, hasNoAccount, seedDemoPhysicianAndPatient } from './demo-accounts.js';
export { findUserOfLiveSession } from './session.service.js';
