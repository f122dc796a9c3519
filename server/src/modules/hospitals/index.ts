/** The hospitals module's public entry: what other modules, jobs and plugins may use of it. */
export {
  addHospital,
  addRosterPhysician,
  listHospitals,
  type TaggedHospitalList,
} from './hospitals.service.js';
export { addToRoster, hasNoHospital, seedDemoHospitals, type DemoHospital } from './demo-hospitals.js';
