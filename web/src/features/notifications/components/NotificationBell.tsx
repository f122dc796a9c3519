import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { useNotifications } from '../api/notifications';

/** The navigation bar's bell with the number of unread notifications. */
export function NotificationBell() {
  const notifications = useNotifications(true);
  const unread = notifications.data?.filter((item) => item.read === 0).length ?? 0;
  return (
    <Link
      to={PATHS.notifications}
      className="nav-link position-relative px-2"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
    >
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
      </svg>
      {unread > 0 && (
        <Badge
          bg="danger"
          pill
          className="position-absolute top-0 start-100 translate-middle"
          aria-hidden="true"
        >
          {unread > 99 ? '99+' : unread}
        </Badge>
      )}
    </Link>
  );
}
