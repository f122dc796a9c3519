import type { Notification } from '@ra/shared';

/** A user's newest notifications with the tag (ETag) of the version they were read at. */
export interface TaggedNotifications {
  tag: string;
  list: Notification[];
}
