import { createRequire } from 'node:module';

/**
 * dcmjs-dimse, a CommonJS bundle whose names Node cannot see from an ES module import: loaded with
 * require, typed by its own declarations. Its logger is silenced; this module logs what matters.
 */
const dimse = createRequire(import.meta.url)('dcmjs-dimse') as typeof import('dcmjs-dimse');
dimse.log.setLevel('silent');

export default dimse;
