import Form from 'react-bootstrap/Form';
import type { ComponentProps } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface TextFieldProps extends Omit<ComponentProps<typeof Form.Control>, 'id'> {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
}

/** A labelled input whose error message is tied to it for screen readers. */
export function TextField({ id, label, registration, error, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...inputProps}
        {...registration}
        isInvalid={Boolean(error)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
      />
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error?.message}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
