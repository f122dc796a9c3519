import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { MONTHS } from '../lib/dates';
import { SelectField } from './SelectField';
import { TextField } from './TextField';

interface DateOfBirthFieldsProps {
  idPrefix: string;
  month: UseFormRegisterReturn;
  day: UseFormRegisterReturn;
  year: UseFormRegisterReturn;
  errors: { month?: FieldError; day?: FieldError; year?: FieldError };
}

/**
 * Date of birth as a month select, a day number and a four-digit year, sent as `YYYY-MM-DD`
 * (docs/api.md §1.2).
 */
export function DateOfBirthFields({ idPrefix, month, day, year, errors }: DateOfBirthFieldsProps) {
  return (
    <fieldset>
      <legend className="fs-6">Date of birth</legend>
      <Row>
        <Col xs={12} sm={5}>
          <SelectField id={`${idPrefix}-month`} label="Month" registration={month} error={errors.month}>
            <option value="">Month</option>
            {MONTHS.map((name, index) => (
              <option key={name} value={String(index + 1)}>
                {name}
              </option>
            ))}
          </SelectField>
        </Col>
        <Col xs={5} sm={3}>
          <TextField
            id={`${idPrefix}-day`}
            label="Day"
            type="number"
            min={1}
            max={31}
            inputMode="numeric"
            registration={day}
            error={errors.day}
          />
        </Col>
        <Col xs={7} sm={4}>
          <TextField
            id={`${idPrefix}-year`}
            label="Year"
            inputMode="numeric"
            maxLength={4}
            registration={year}
            error={errors.year}
          />
        </Col>
      </Row>
    </fieldset>
  );
}
