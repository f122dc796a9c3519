import type { AppContext } from '../../context.js';
import * as repo from './studies.repository.js';

/** The stored files of a study item (empty for anything else), for sending the study elsewhere. */
export function storedInstancesOf(ctx: AppContext, itemId: string) {
  return repo.findStoredInstances(ctx.db, itemId);
}
