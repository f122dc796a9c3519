import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { toRoleName, type AccessAction, type AccessHistoryEntry } from '@ra/shared';
import { formatDateTime } from '../../../lib/dates';
import { imageViewPath } from '../../../lib/paths';

const ACTION_TEXT: Record<AccessAction, string> = {
  list: 'Viewed your image list',
  view: 'Viewed an image',
  download: 'Downloaded an image file',
  profile: 'Viewed your profile',
  share_open: 'Opened a shared link',
};

/** Who did it: a named account with its role, or whoever held a shared link (nobody signed in). */
function actorText(entry: AccessHistoryEntry): string {
  if (!entry.actor || entry.via === 'share_link') {
    return 'Shared link';
  }
  return `${entry.actor.full_name} (${toRoleName(entry.actor.role)})`;
}

function ActionText({ entry }: { entry: AccessHistoryEntry }) {
  const text = ACTION_TEXT[entry.action];
  if (entry.action === 'view' && entry.item_uid) {
    return <Link to={imageViewPath(entry.item_uid)}>{text}</Link>;
  }
  return text;
}

/** The accesses to a patient's records as a table, in the order given (newest first). */
export function AccessHistoryTable({ entries }: { entries: AccessHistoryEntry[] }) {
  return (
    <Table striped responsive className="align-middle">
      <caption className="visually-hidden">Who accessed your records, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry, index) => (
          // Entries carry no id of their own; the list only ever grows at its end.
          <tr key={`${entry.at}-${index}`}>
            <td>
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            </td>
            <td>{actorText(entry)}</td>
            <td>
              <ActionText entry={entry} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
