import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { emailField, LIMITS } from '@ra/shared';
import { DateOfBirthFields } from '../../../components/DateOfBirthFields';
import { NameFields } from '../../../components/NameFields';
import { LinkButton } from '../../../components/LinkButton';
import { SubmitButton } from '../../../components/SubmitButton';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api-client';
import { toIsoDate } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
import { addPatient } from '../api/add-patient';

const optionalText = z.string().trim().max(LIMITS.name, { error: 'This is too long.' });

const addPatientFormSchema = z.object({
  first_name: optionalText,
  last_name: optionalText,
  month: z.string(),
  day: z.string().trim(),
  year: z.string().trim(),
  email: emailField(),
});
type AddPatientForm = z.input<typeof addPatientFormSchema>;

export function AddPatientPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<AddPatientForm, unknown, z.output<typeof addPatientFormSchema>>({
    resolver: zodResolver(addPatientFormSchema),
    defaultValues: { first_name: '', last_name: '', month: '', day: '', year: '', email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setError(null);
    const hasDate = Boolean(values.month || values.day || values.year);
    try {
      await addPatient({
        email: values.email,
        first_name: values.first_name,
        last_name: values.last_name,
        dob: hasDate ? toIsoDate(values) : '',
      });
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) {
        setError(err.message);
      } else {
        console.error('Adding the patient failed', err);
        setError('Something went wrong. Please try again.');
      }
      return;
    }
    await queryClient.invalidateQueries({ queryKey: ['patients'] });
    await navigate(PATHS.patients);
  });

  return (
    <Container className="py-5">
      <Card className="mx-auto shadow-sm" style={{ maxWidth: '40rem' }}>
        <Card.Body className="p-4">
          <h1 className="h3">Patient Center</h1>
          <p>
            To add a patient who already has an account, enter their email. To add a new patient, also fill in
            their name and date of birth: we create the account and email them an invitation to choose a
            password.
          </p>
          <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
            <NameFields
              idPrefix="patient"
              first={form.register('first_name')}
              last={form.register('last_name')}
              errors={errors}
            />
            <DateOfBirthFields
              idPrefix="patient"
              month={form.register('month')}
              day={form.register('day')}
              year={form.register('year')}
              errors={errors}
            />
            <TextField
              id="patient-email"
              label="Email"
              type="email"
              autoComplete="off"
              registration={form.register('email')}
              error={errors.email}
            />
            <SubmitButton isBusy={isSubmitting}>Add New Patient</SubmitButton>
            {error && (
              <p role="alert" className="text-danger mt-3 mb-0">
                {error}
              </p>
            )}
          </Form>
          <div className="mt-3">
            <LinkButton to={PATHS.dashboard} variant="outline-secondary">
              Back to Dashboard
            </LinkButton>
          </div>
        </Card.Body>
      </Card>
    </Container>
  );
}
