import type { Queryable } from '../../db/client.js';
import * as repo from './identity.repository.js';

/*
 * Account lookups and creation for other modules (add-patient, the operator's radiologist
 * accounts), so that they call identity's service rather than reach into its repository.
 */

export function findAccountByEmail(db: Queryable, email: string) {
  return repo.findUserByEmail(db, email);
}

/** Inserts an account; undefined when the email is already taken. */
export function createAccount(db: Queryable, user: Parameters<typeof repo.insertUser>[1]) {
  return repo.insertUser(db, user);
}
