import { and, asc, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { users } from '../../db/schema/users.js';

const pictureColumns = {
  pictureId: users.pictureId,
  pictureKey: users.pictureKey,
  pictureCropKey: users.pictureCropKey,
};

export function findProfile(db: Queryable, userId: string) {
  return db.query.users.findFirst({
    where: eq(users.id, userId),
    columns: {
      id: true,
      role: true,
      email: true,
      title: true,
      firstName: true,
      lastName: true,
      dob: true,
      bio: true,
      expertise: true,
      yearsOfExp: true,
      allowRatings: true,
      pictureId: true,
      pictureKey: true,
      pictureCropKey: true,
    },
  });
}

const staffColumns = {
  id: users.id,
  role: users.role,
  title: users.title,
  firstName: users.firstName,
  lastName: users.lastName,
  pictureId: users.pictureId,
  pictureCropKey: users.pictureCropKey,
};

/** Staff members by last name, first name (the care team the access policy names). */
export function listStaff(db: Queryable, ids: string[]) {
  return db
    .select(staffColumns)
    .from(users)
    .where(and(inArray(users.id, ids), inArray(users.role, ['PHYSICIAN', 'RADIOLOGIST'])))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

export interface ProfileChanges {
  bio?: string;
  allowRatings?: boolean;
  picture?: { id: string; key: string } | null;
}

/** The current picture's keys, locked until the transaction ends so two changes cannot race. */
export async function lockPicture(db: Queryable, userId: string) {
  const [row] = await db.select(pictureColumns).from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function updateProfile(db: Queryable, userId: string, changes: ProfileChanges) {
  const picture =
    changes.picture === undefined
      ? {}
      : {
          pictureId: changes.picture?.id ?? null,
          pictureKey: changes.picture?.key ?? null,
          pictureCropKey: null,
        };
  await db
    .update(users)
    .set({ bio: changes.bio, allowRatings: changes.allowRatings, ...picture, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function findPicture(db: Queryable, userId: string) {
  const [row] = await db.select(pictureColumns).from(users).where(eq(users.id, userId));
  return row;
}

/** Records the crop of a picture; false when the user has changed their picture since. */
export async function setPictureCrop(db: Queryable, userId: string, pictureId: string, cropKey: string) {
  const rows = await db
    .update(users)
    .set({ pictureCropKey: cropKey })
    .where(and(eq(users.id, userId), eq(users.pictureId, pictureId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The crop behind a picture URL, when `readable` (access `pictureReadFilter`) lets its owner's show. */
export async function findPictureCrop(db: Queryable, pictureId: string, readable: SQL) {
  const [row] = await db
    .select({ cropKey: users.pictureCropKey })
    .from(users)
    .where(and(eq(users.pictureId, pictureId), readable));
  return row?.cropKey ?? undefined;
}

export async function listPicturesWithoutCrop(
  db: Queryable,
  limit: number,
): Promise<{ userId: string; pictureId: string }[]> {
  const rows = await db
    .select({ userId: users.id, pictureId: users.pictureId })
    .from(users)
    .where(and(isNotNull(users.pictureId), isNull(users.pictureCropKey)))
    .limit(limit);
  return rows.flatMap(({ userId, pictureId }) => (pictureId ? [{ userId, pictureId }] : []));
}
