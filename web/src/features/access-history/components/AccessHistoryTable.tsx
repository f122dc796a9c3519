import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { toRoleName, type AccessAction, type AccessHistoryEntry } from '@ra/shared';
import { counted } from '../../../lib/counted';
import { formatDateTime } from '../../../lib/dates';
import { itemTitle } from '../../../lib/item-label';
import { imageViewPath } from '../../../lib/paths';
import { groupVisits, type Visit, type VisitedItem } from '../visits';

const OTHER_TEXT: Record<AccessAction, string> = {
  list: 'Viewed your image list',
  view: 'Viewed an image',
  download: 'Downloaded an image file',
  profile: 'Viewed your profile',
  share_open: 'Opened a shared link',
};

/** Who did it: a named account with its role, or whoever held a shared link (nobody signed in). */
function actorText(entry: AccessHistoryEntry): string {
  if (entry.who?.kind === 'share') {
    return entry.who.label;
  }
  if (!entry.actor || entry.via === 'share_link') {
    return 'Shared link';
  }
  return `${entry.actor.full_name} (${toRoleName(entry.actor.role)})`;
}

function whenText(visit: Visit): string {
  const first = formatDateTime(visit.first);
  const last = formatDateTime(visit.last);
  if (first === last) {
    return first;
  }
  // The same day is written once: "11/27/26, 2:05 PM – 2:20 PM".
  const [firstDay, firstTime] = first.split(', ');
  const [lastDay, lastTime] = last.split(', ');
  return firstDay === lastDay ? `${firstDay}, ${firstTime} – ${lastTime}` : `${first} – ${last}`;
}

function VisitedItemLine({ visited }: { visited: VisitedItem }) {
  const what = [
    visited.views > 0 && 'viewed',
    visited.downloads > 0 && `${counted(visited.downloads, 'file', 'files')} downloaded`,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <li>
      {visited.item ? (
        <Link to={imageViewPath(visited.uid)}>{itemTitle(visited.item)}</Link>
      ) : (
        <span>An item</span>
      )}
      : {what}
    </li>
  );
}

/**
 * The accesses to a patient's records grouped into visits (one person's accesses close together),
 * newest first: when, who, and each item they looked at once, by name.
 */
export function AccessHistoryTable({ entries }: { entries: AccessHistoryEntry[] }) {
  const visits = groupVisits(entries);
  return (
    <Table striped responsive className="align-middle">
      <caption className="visually-hidden">Who accessed your records, by visit, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
        </tr>
      </thead>
      <tbody>
        {visits.map((visit) => (
          // A visit starts at its newest entry; two visits never share one.
          <tr key={`${visit.last}-${actorText(visit.who)}`} data-testid="access-visit">
            <td>
              <time dateTime={visit.last}>{whenText(visit)}</time>
            </td>
            <td>{actorText(visit.who)}</td>
            <td>
              <ul className="list-unstyled mb-0">
                {visit.items.map((visited) => (
                  <VisitedItemLine key={visited.uid} visited={visited} />
                ))}
                {visit.others.map((action) => (
                  <li key={action}>{OTHER_TEXT[action]}</li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
