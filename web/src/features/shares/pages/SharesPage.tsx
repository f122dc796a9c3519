import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { ShareListEntry } from '@ra/shared';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { useToasts } from '../../../components/toasts/toast-context';
import { formatDateTime } from '../../../lib/dates';
import { itemTitle } from '../../../lib/item-label';
import { imageViewPath, PATHS } from '../../../lib/paths';
import { useRevokeShare, useShares } from '../../../lib/api/shares';

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert variant="danger" className="d-flex justify-content-between align-items-center">
      <span>Your shared links could not be loaded.</span>
      <Button variant="outline-danger" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}

function stateOf(share: ShareListEntry): string {
  if (share.revoked_at) {
    return 'Revoked';
  }
  return share.is_active ? 'Active' : 'Not available';
}

function ShareRow({ share, onRevoke }: { share: ShareListEntry; onRevoke: (share: ShareListEntry) => void }) {
  return (
    <tr data-testid="share-row">
      <td>
        {share.item ? <Link to={imageViewPath(share.item_uid)}>{itemTitle(share.item)}</Link> : 'An item'}
        {share.note && <div className="small text-body-secondary">{share.note}</div>}
      </td>
      <td>{formatDateTime(share.created_at)}</td>
      <td>{formatDateTime(share.expires_at)}</td>
      <td>{share.last_opened_at ? formatDateTime(share.last_opened_at) : 'Never'}</td>
      <td>{share.open_count}</td>
      <td>{share.has_access_code ? 'Yes' : 'No'}</td>
      <td>{stateOf(share)}</td>
      <td>
        {share.is_active && (
          <Button size="sm" variant="outline-danger" onClick={() => onRevoke(share)}>
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}

function ShareList() {
  const shares = useShares();
  const revoke = useRevokeShare();
  const toasts = useToasts();
  const [confirming, setConfirming] = useState<ShareListEntry | null>(null);
  const entries = shares.data?.pages.flatMap((page) => page.shares) ?? [];

  if (shares.isPending) {
    return <PageSpinner label="Loading your shared links…" />;
  }
  if (!shares.data) {
    return <LoadFailed onRetry={() => void shares.refetch()} />;
  }
  if (entries.length === 0) {
    return <p>You have not shared any links yet. Open an image or a study and choose Share.</p>;
  }
  const confirmRevoke = () => {
    const share = confirming;
    setConfirming(null);
    if (share) {
      revoke.mutate(share.uid, {
        onSuccess: () => toasts.show({ message: 'The link was revoked.', variant: 'success' }),
        onError: () => toasts.show({ message: 'The link could not be revoked.', variant: 'danger' }),
      });
    }
  };
  return (
    <>
      <Table striped responsive className="align-middle">
        <caption className="visually-hidden">Your shared links, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last opened</th>
            <th scope="col">Opened</th>
            <th scope="col">Access code</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((share) => (
            <ShareRow key={share.uid} share={share} onRevoke={setConfirming} />
          ))}
        </tbody>
      </Table>
      {shares.isFetchNextPageError && <LoadFailed onRetry={() => void shares.fetchNextPage()} />}
      {shares.hasNextPage && !shares.isFetchNextPageError && (
        <Button
          variant="outline-secondary"
          onClick={() => void shares.fetchNextPage()}
          disabled={shares.isFetchingNextPage}
        >
          Load more
        </Button>
      )}
      <Modal
        show={confirming !== null}
        onHide={() => setConfirming(null)}
        aria-labelledby="revoke-share-title"
      >
        <Modal.Header closeButton>
          <Modal.Title id="revoke-share-title">Revoke this link?</Modal.Title>
        </Modal.Header>
        <Modal.Body>Nobody will be able to open it again. This cannot be undone.</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirmRevoke}>
            Revoke link
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

/** The links the signed-in patient (or physician) has shared, with their use and a way to revoke each. */
export function SharesPage() {
  return (
    <Container className="py-5">
      <h1 className="mb-3">Shared links</h1>
      <p className="text-body-secondary">
        Links you made to let someone see an image or a study without an account, newest first.
      </p>
      <ShareList />
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
