import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './TextField';

interface NameFieldsProps {
  idPrefix: string;
  first: UseFormRegisterReturn;
  last: UseFormRegisterReturn;
  errors: { first_name?: FieldError; last_name?: FieldError };
  /** Autocomplete hints are for the person filling in their own name, not someone else's. */
  isOwnName?: boolean;
}

/** First and last name side by side on wider screens. */
export function NameFields({ idPrefix, first, last, errors, isOwnName = false }: NameFieldsProps) {
  return (
    <Row>
      <Col sm={6}>
        <TextField
          id={`${idPrefix}-first-name`}
          label="First name"
          autoComplete={isOwnName ? 'given-name' : 'off'}
          registration={first}
          error={errors.first_name}
        />
      </Col>
      <Col sm={6}>
        <TextField
          id={`${idPrefix}-last-name`}
          label="Last name"
          autoComplete={isOwnName ? 'family-name' : 'off'}
          registration={last}
          error={errors.last_name}
        />
      </Col>
    </Row>
  );
}
