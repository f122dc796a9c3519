import type { AccessAction, AccessHistoryEntry, ItemSummary } from '@ra/shared';

/** Accesses by the same person no further apart than this are one visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;

export interface VisitedItem {
  uid: string;
  item: ItemSummary | null;
  views: number;
  downloads: number;
}

/** One person's accesses close together in time: when, who, and what they looked at. */
export interface Visit {
  /** Newest and oldest access of the visit. */
  last: string;
  first: string;
  /** The entry whose actor and channel the visit shares. */
  who: AccessHistoryEntry;
  items: VisitedItem[];
  /** What else they looked at (their image list, the profile, a shared link), once each. */
  others: AccessAction[];
}

function whoKey(entry: AccessHistoryEntry): string {
  // Each share link is someone of its own: its label names when it was made.
  return `${entry.via}:${entry.actor?.uid ?? ''}:${entry.who?.kind === 'share' ? entry.who.label : ''}`;
}

/**
 * Groups entries (newest first, as the server pages them) into visits: consecutive entries of one
 * person, each within VISIT_GAP_MS of the next. A visit lists each item once, with how often it
 * was viewed and how many of its files were downloaded (a study's viewer fetches many).
 */
export function groupVisits(entries: readonly AccessHistoryEntry[]): Visit[] {
  const visits: Visit[] = [];
  let current: Visit | undefined;
  for (const entry of entries) {
    const isSameVisit =
      current !== undefined &&
      whoKey(current.who) === whoKey(entry) &&
      Date.parse(current.first) - Date.parse(entry.at) <= VISIT_GAP_MS;
    if (!isSameVisit) {
      current = { last: entry.at, first: entry.at, who: entry, items: [], others: [] };
      visits.push(current);
    }
    const visit = current!;
    visit.first = entry.at;
    if (entry.item_uid && (entry.action === 'view' || entry.action === 'download')) {
      let visited = visit.items.find((item) => item.uid === entry.item_uid);
      if (!visited) {
        visited = { uid: entry.item_uid, item: entry.item, views: 0, downloads: 0 };
        visit.items.push(visited);
      }
      if (entry.action === 'view') {
        visited.views += 1;
      } else {
        visited.downloads += 1;
      }
    } else if (!visit.others.includes(entry.action)) {
      visit.others.push(entry.action);
    }
  }
  return visits;
}
