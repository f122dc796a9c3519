import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { formatDateTime } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
import { useMarkRead, useNotifications } from '../api/notifications';

export function NotificationsPage() {
  const { user } = useAuth();
  const notifications = useNotifications(Boolean(user));
  const markRead = useMarkRead();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const list = notifications.data ?? [];

  function toggle(uid: string) {
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(uid)) {
        next.delete(uid);
      } else {
        next.add(uid);
      }
      return next;
    });
  }

  async function handleMark(ids: string[]) {
    setError(null);
    try {
      await markRead({ read: ids });
      setChecked(new Set());
    } catch {
      setError('The notifications could not be marked as read. Please try again.');
    }
  }

  return (
    <Container className="py-5">
      <h1 className="mb-4">Notifications</h1>
      {notifications.isPending && <PageSpinner label="Loading notifications…" />}
      {notifications.isError && <Alert variant="danger">Your notifications could not be loaded.</Alert>}
      {error && <Alert variant="danger">{error}</Alert>}
      {notifications.isSuccess && list.length === 0 && <p>You have no notifications.</p>}
      {list.length > 0 && (
        <>
          <div className="d-flex gap-2 mb-3">
            <Button onClick={() => void handleMark([...checked])} disabled={checked.size === 0}>
              Mark as Read
            </Button>
            <Button
              variant="outline-primary"
              onClick={() => void handleMark(list.filter((item) => item.read === 0).map((item) => item.uid))}
              disabled={list.every((item) => item.read === 1)}
            >
              Mark All as Read
            </Button>
          </div>
          <ListGroup>
            {list.map((item) => (
              <ListGroup.Item key={item.uid} className="d-flex align-items-center gap-3">
                <Form.Check
                  id={`notification-${item.uid}`}
                  checked={checked.has(item.uid)}
                  onChange={() => toggle(item.uid)}
                  aria-label={`Select “${item.message}”`}
                />
                <span
                  className={item.read === 0 ? 'text-primary' : 'text-body-tertiary'}
                  title={item.read === 0 ? 'Unread' : 'Read'}
                  aria-hidden="true"
                >
                  {item.read === 0 ? '●' : '○'}
                </span>
                <span className="visually-hidden">{item.read === 0 ? 'Unread:' : 'Read:'}</span>
                <div className="flex-grow-1">
                  {item.to ? <Link to={item.to}>{item.message}</Link> : item.message}
                  <div className="small text-body-secondary">{formatDateTime(item.createdAt)}</div>
                </div>
              </ListGroup.Item>
            ))}
          </ListGroup>
        </>
      )}
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
