import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { useParams } from 'react-router';
import { displayName, formatDollars } from '@ra/shared';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useInvoiceActions, useInvoiceDetail } from '../api/invoices';

/** The sandbox provider's hosted payment page: a test payment through the real paid-invoice path. */
export function PayPage() {
  const { uid } = useParams();
  const detail = useInvoiceDetail(uid);
  const actions = useInvoiceActions();
  const [error, setError] = useState<string | null>(null);
  const [isPaying, setIsPaying] = useState(false);

  async function handlePay() {
    if (!uid) {
      return;
    }
    setError(null);
    setIsPaying(true);
    try {
      await actions.payInSandbox(uid);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The payment failed. Please try again.');
    } finally {
      setIsPaying(false);
    }
  }

  if (detail.isPending) {
    return <PageSpinner label="Loading the invoice…" />;
  }
  if (detail.isError) {
    return (
      <Container className="py-5">
        <Alert variant="warning">This invoice does not exist or is not yours.</Alert>
      </Container>
    );
  }
  const { invoice, thumbnail_url: thumbnail } = detail.data;
  return (
    <Container className="py-5">
      <Card className="mx-auto shadow-sm" style={{ maxWidth: '32rem' }}>
        <Card.Body className="p-4">
          <Alert variant="warning">Test payment — no money is taken</Alert>
          <h1 className="h4">Second opinion by {displayName(invoice.radiologist)}</h1>
          {thumbnail && <img src={thumbnail} alt="The image to review" className="thumbnail my-3" />}
          <p className="fs-5">Amount: {formatDollars(invoice.amount)}</p>
          {invoice.status === 'paid' && (
            <Alert variant="success">Payment received. Your radiologist has been told.</Alert>
          )}
          {invoice.status === 'void' && <Alert variant="secondary">This invoice was cancelled.</Alert>}
          {error && <Alert variant="danger">{error}</Alert>}
          {invoice.status === 'open' && (
            <Button size="lg" className="w-100" onClick={() => void handlePay()} disabled={isPaying}>
              {isPaying ? 'Paying…' : `Pay ${formatDollars(invoice.amount)}`}
            </Button>
          )}
          <div className="mt-3">
            <LinkButton to={PATHS.invoices} variant="outline-secondary">
              Back to invoices
            </LinkButton>
          </div>
        </Card.Body>
      </Card>
    </Container>
  );
}
