import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { TITLES } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { SelectField } from '../../../components/SelectField';
import { SubmitButton } from '../../../components/SubmitButton';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useHospitals } from '../api/hospitals';
import { signUp } from '../api/sign-up';
import { DateOfBirthFields } from '../../../components/DateOfBirthFields';
import { NameFields } from '../../../components/NameFields';
import { toIsoDate } from '../../../lib/dates';
import {
  signUpFormSchema,
  type SignUpFormInput,
  type SignUpFormOutput,
} from '../components/sign-up-form-schema';
import { useToasts } from '../../../components/toasts/toast-context';

export function SignUpPage() {
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const toasts = useToasts();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<SignUpFormInput, unknown, SignUpFormOutput>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: {
      role: 'PATIENT',
      hospital: '',
      title: '',
      first_name: '',
      last_name: '',
      month: '',
      day: '',
      year: '',
      email: '',
      password: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const isPhysician = form.watch('role') === 'PHYSICIAN';
  const hospitals = useHospitals(isPhysician);

  const handleSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await signUp({
        role: values.role,
        hospital: values.role === 'PHYSICIAN' ? values.hospital : undefined,
        title: values.title,
        first_name: values.first_name,
        last_name: values.last_name,
        dob: toIsoDate(values),
        email: values.email,
        password: values.password,
      });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong');
      return;
    }
    try {
      await signIn(values.email, values.password);
    } catch {
      setError('The email or password is incorrect');
      return;
    }
    if (values.role === 'PATIENT') {
      toasts.show({
        variant: 'info',
        message: 'Share your account email with your physician to get started.',
      });
    }
    await navigate(PATHS.dashboard, { replace: true });
  });

  return (
    <Container className="py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          <p className="mb-1">
            <Link to={PATHS.home}>Radiology Archive</Link>
          </p>
          <h1 className="h3 mb-4">Create your account</h1>
          {error && <Alert variant="danger">{error}</Alert>}
          <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
            <SelectField
              id="signup-role"
              label="Role"
              registration={form.register('role')}
              error={errors.role}
            >
              <option value="PATIENT">Patient</option>
              <option value="PHYSICIAN">Physician</option>
            </SelectField>
            {isPhysician && (
              <SelectField
                id="signup-hospital"
                label="Hospital"
                registration={form.register('hospital')}
                error={errors.hospital}
                disabled={hospitals.isPending}
              >
                <option value="">
                  {hospitals.isPending ? 'Loading hospitals…' : 'Choose your hospital'}
                </option>
                {hospitals.data?.hospitals.map((hospital) => (
                  <option key={hospital.uid} value={hospital.uid}>
                    {hospital.name}
                  </option>
                ))}
              </SelectField>
            )}
            {hospitals.isError && <Alert variant="warning">The hospital list could not be loaded.</Alert>}
            <SelectField
              id="signup-title"
              label="Title"
              registration={form.register('title')}
              error={errors.title}
            >
              <option value="">(none)</option>
              {TITLES.map((title) => (
                <option key={title} value={title}>
                  {title}
                </option>
              ))}
            </SelectField>
            <NameFields
              idPrefix="signup"
              first={form.register('first_name')}
              last={form.register('last_name')}
              errors={errors}
              isOwnName
            />
            <DateOfBirthFields
              idPrefix="signup"
              month={form.register('month')}
              day={form.register('day')}
              year={form.register('year')}
              errors={errors}
            />
            <TextField
              id="signup-email"
              label="Email"
              type="email"
              autoComplete="email"
              registration={form.register('email')}
              error={errors.email}
            />
            <TextField
              id="signup-password"
              label="Password"
              type="password"
              autoComplete="new-password"
              registration={form.register('password')}
              error={errors.password}
            />
            <SubmitButton isBusy={isSubmitting}>Sign Up</SubmitButton>
          </Form>
          <p className="mt-3 mb-0">
            Already have an account? <Link to={PATHS.signIn}>Log in</Link>
          </p>
        </Card.Body>
      </Card>
    </Container>
  );
}
