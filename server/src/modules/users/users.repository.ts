import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { users } from '../../db/schema/users.js';

export function listRadiologists(db: Queryable) {
  return db
    .select({
      id: users.id,
      title: users.title,
      firstName: users.firstName,
      lastName: users.lastName,
      expertise: users.expertise,
      bio: users.bio,
      yearsOfExp: users.yearsOfExp,
      feeCents: users.feeCents,
      allowRatings: users.allowRatings,
      pictureId: users.pictureId,
      pictureCropKey: users.pictureCropKey,
    })
    .from(users)
    .where(eq(users.role, 'RADIOLOGIST'))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

export async function findRadiologist(db: Queryable, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      title: users.title,
      firstName: users.firstName,
      lastName: users.lastName,
      feeCents: users.feeCents,
      allowRatings: users.allowRatings,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'RADIOLOGIST')));
  return row;
}
