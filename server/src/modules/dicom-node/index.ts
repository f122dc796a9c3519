/** The dicom-node module's public entry: the DICOM node (DIMSE) and its registry of nodes. */
export { startDicomNode, type RunningDicomNode } from './dicom-node-server.js';
export {
  addDicomNode,
  dicomNodesOf,
  listDicomNodes,
  newNodeSchema,
  removeDicomNode,
  type NewNode,
} from './node-registry.service.js';
export { sendStudyJob } from './send-study.job.js';
export { SEND_STUDY_JOB } from './send-study.service.js';
