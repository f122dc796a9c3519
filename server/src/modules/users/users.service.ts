import { isUuid, type MeetRadiologist, meetRadiologistSchema, type Radiologist } from '@ra/shared';
import { ratingSummaries } from '../ratings/index.js';
import type { AppContext } from '../../context.js';
import { centsToDollars } from '../../lib/money.js';
import { publicPictureUrl } from './profile-picture.js';
import * as repo from './users.repository.js';

const MEET_OUR_RADIOLOGISTS_LIMIT = 6;

type RadiologistRow = Awaited<ReturnType<typeof repo.listRadiologists>>[number];

function toMeetRadiologist(row: RadiologistRow): MeetRadiologist {
  return {
    uid: row.id,
    title: row.title,
    first_name: row.firstName,
    last_name: row.lastName,
    expertise: row.expertise,
    profile_image_url: publicPictureUrl(row),
  };
}

/** Every radiologist by last name, with the average and count of their ratings. */
export async function listRadiologists(ctx: AppContext): Promise<Radiologist[]> {
  const rows = await repo.listRadiologists(ctx.db);
  const summaries = await ratingSummaries(
    ctx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...toMeetRadiologist(row),
    bio: row.bio,
    years_of_exp: row.yearsOfExp,
    average_rating: summaries.get(row.id)?.average ?? null,
    rating_count: summaries.get(row.id)?.count ?? 0,
    allow_ratings: row.allowRatings,
    fee: centsToDollars(row.feeCents),
  }));
}

/** At most six: best average first, unrated last, then by last name and first name. */
export async function listMeetOurRadiologists(ctx: AppContext): Promise<MeetRadiologist[]> {
  const all = await listRadiologists(ctx);
  const ranked = all
    .map((radiologist, index) => ({ radiologist, index }))
    .sort(
      (a, b) =>
        (b.radiologist.average_rating ?? -1) - (a.radiologist.average_rating ?? -1) || a.index - b.index,
    );
  return ranked
    .slice(0, MEET_OUR_RADIOLOGISTS_LIMIT)
    .map(({ radiologist }) => meetRadiologistSchema.parse(radiologist));
}

/** The radiologist with this uid; undefined for anyone else and for malformed uids. */
export async function findRadiologist(ctx: AppContext, uid: string) {
  return isUuid(uid) ? repo.findRadiologist(ctx.db, uid) : undefined;
}
