import type { MeetRadiologist, Radiologist } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { centsToDollars } from '../../lib/money.js';
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
    profile_image_url: null,
  };
}

/** Ratings arrive with the second-opinion work; until then every radiologist is unrated. */
export async function listMeetOurRadiologists(ctx: AppContext): Promise<MeetRadiologist[]> {
  const rows = await repo.listRadiologists(ctx.db, MEET_OUR_RADIOLOGISTS_LIMIT);
  return rows.map(toMeetRadiologist);
}

export async function listRadiologists(ctx: AppContext): Promise<Radiologist[]> {
  const rows = await repo.listRadiologists(ctx.db);
  return rows.map((row) => ({
    ...toMeetRadiologist(row),
    bio: row.bio,
    years_of_exp: row.yearsOfExp,
    average_rating: null,
    rating_count: 0,
    allow_ratings: row.allowRatings,
    fee: centsToDollars(row.feeCents),
  }));
}
