import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import * as repo from './received-studies.repository.js';

/** The studies waiting among `received` (the access policy's receivedItemFilter), newest first. */
export function listReceivedStudies(db: Queryable, received: SQL) {
  return repo.listReceived(db, received);
}

/** A waiting study among `received`; undefined when it is not there (any more). */
export function findReceivedStudy(db: Queryable, received: SQL, id: string) {
  return repo.findReceived(db, received, id);
}

/** Every person (name, birth date) the instances of a study name, with how many instances name each. */
export function peopleInStudy(db: Queryable, itemId: string) {
  return repo.peopleInStudy(db, itemId);
}

/**
 * Files a waiting study under a patient; false when it was no longer waiting. Throws a unique
 * violation when the patient already holds a study of the same Study Instance UID.
 */
export function fileReceivedStudy(db: Queryable, received: SQL, id: string, patientId: string) {
  return repo.fileReceived(db, received, id, patientId);
}
