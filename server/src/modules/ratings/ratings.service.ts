import { z } from 'zod';
import { PATHS } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { may } from '../access/index.js';
import { notify } from '../notifications/index.js';
import * as repo from './ratings.repository.js';

/** A patient rates a radiologist who reviewed an image they paid for (docs/api.md §17). */
export async function rateRadiologist(
  ctx: AppContext,
  patient: Actor,
  radiologistUid: string,
  rating: number,
): Promise<string> {
  const radiologist = z.uuid().safeParse(radiologistUid).success
    ? await repo.findRateableRadiologist(ctx.db, radiologistUid)
    : undefined;
  if (!radiologist) {
    throw new AppError('NOT_FOUND');
  }
  if (!radiologist.allowRatings) {
    throw new RuleViolation('This radiologist is not accepting ratings.');
  }
  if (!(await may(ctx, patient, 'rating:write', radiologist.id))) {
    throw new RuleViolation('You can only rate a radiologist who has reviewed your images.');
  }
  return ctx.db.transaction(async (tx) => {
    const previous = await repo.findRating(tx, patient.id, radiologist.id);
    if (previous?.rating === rating) {
      return 'Same rating already exists.';
    }
    await repo.upsertRating(tx, patient.id, radiologist.id, rating);
    await notify(tx, {
      userId: radiologist.id,
      message: previous ? 'A patient has updated their rating.' : 'A patient has rated your service.',
      to: PATHS.profile,
    });
    return previous ? 'Rating updated successfully.' : 'Rating submitted successfully.';
  });
}

/** Average (rounded to 2 decimals) and count of ratings per radiologist. */
export function ratingSummaries(
  ctx: AppContext,
  radiologistIds: string[],
): Promise<Map<string, { average: number; count: number }>> {
  return repo.ratingSummaries(ctx.db, radiologistIds);
}
