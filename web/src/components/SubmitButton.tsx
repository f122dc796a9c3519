import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { ReactNode } from 'react';

/** A submit button that shows it is busy and cannot be pressed twice. */
export function SubmitButton({
  isBusy,
  children,
  variant = 'primary',
}: {
  isBusy: boolean;
  children: ReactNode;
  variant?: string;
}) {
  return (
    <Button type="submit" variant={variant} disabled={isBusy} className="w-100">
      {isBusy && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
      {children}
    </Button>
  );
}
