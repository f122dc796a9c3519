import Form from 'react-bootstrap/Form';
import type { ReactNode } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface SelectFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  children: ReactNode;
  disabled?: boolean;
}

/** A labelled select whose error message is tied to it for screen readers. */
export function SelectField({ id, label, registration, error, children, disabled }: SelectFieldProps) {
  const errorId = `${id}-error`;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        {...registration}
        disabled={disabled}
        isInvalid={Boolean(error)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
      >
        {children}
      </Form.Select>
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error?.message}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
