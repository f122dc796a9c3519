import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Table from 'react-bootstrap/Table';
import { displayName, formatDollars } from '@ra/shared';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { itemTitle } from '../../../lib/item-label';
import { imageViewPath, PATHS } from '../../../lib/paths';
import { Link } from 'react-router';
import { useInvoiceActions, useInvoices } from '../api/invoices';

export function InvoicesPage() {
  const invoices = useInvoices();
  const actions = useInvoiceActions();
  const [error, setError] = useState<string | null>(null);

  async function handleCancel(uid: string) {
    setError(null);
    try {
      await actions.cancel(uid);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The invoice could not be cancelled.');
    }
  }

  return (
    <Container className="py-5">
      <h1 className="mb-4">Invoice History</h1>
      {invoices.isPending && <PageSpinner label="Loading invoices…" />}
      {invoices.isError && <Alert variant="danger">Your invoices could not be loaded.</Alert>}
      {error && <Alert variant="danger">{error}</Alert>}
      {invoices.isSuccess && invoices.data.length === 0 && <p>No invoices available.</p>}
      {invoices.data && invoices.data.length > 0 && (
        <Table responsive className="align-middle">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Amount</th>
              <th scope="col">Radiologist</th>
              <th scope="col">For</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.data.map((invoice) => (
              <tr key={invoice.uid} data-testid="invoice-row">
                <td>{formatDateTime(invoice.createdAt)}</td>
                <td>{formatDollars(invoice.amount)}</td>
                <td>{displayName(invoice.radiologist)}</td>
                <td>
                  {invoice.item ? (
                    <Link to={imageViewPath(invoice.image_uid)}>{itemTitle(invoice.item)}</Link>
                  ) : (
                    <span className="text-body-secondary">An item you can no longer see</span>
                  )}
                  {invoice.item?.physician_note && (
                    <div className="small text-body-secondary text-truncate invoice-note">
                      {invoice.item.physician_note}
                    </div>
                  )}
                </td>
                <td>
                  {invoice.status === 'paid' && (
                    <span className="text-success">
                      <span aria-hidden="true">✓</span> Paid
                    </span>
                  )}
                  {invoice.status === 'open' && (
                    <a href={invoice.url} target="_blank" rel="noopener noreferrer">
                      unpaid / click to pay
                    </a>
                  )}
                  {invoice.status === 'void' && <span className="text-body-secondary">Cancelled</span>}
                </td>
                <td>
                  {invoice.status === 'open' && (
                    <Button variant="outline-danger" size="sm" onClick={() => void handleCancel(invoice.uid)}>
                      Cancel
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <LinkButton to={PATHS.dashboard} variant="outline-secondary">
        Back to Dashboard
      </LinkButton>
    </Container>
  );
}
