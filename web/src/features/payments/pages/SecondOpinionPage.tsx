import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { displayName } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useRadiologists } from '../../../lib/api/radiologists';
import { createInvoice } from '../api/invoices';
import { ImagePickerModal } from '../components/ImagePickerModal';
import { RadiologistCard } from '../components/RadiologistCard';

export function SecondOpinionPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const radiologists = useRadiologists();
  const [chosen, setChosen] = useState('');
  const [isPickerOpen, setIsPickerOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const isPatient = user?.role === 'Patient';

  async function handleConfirm(imageUid: string) {
    setError(null);
    setIsSubmitting(true);
    try {
      await createInvoice(chosen, imageUid);
      await queryClient.invalidateQueries({ queryKey: ['invoices'] });
      await navigate(PATHS.invoices);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The invoice could not be created. Please try again.');
    } finally {
      setIsSubmitting(false);
    }
  }

  return (
    <Container className="py-5">
      <h1 className="mb-3">Get a Second Opinion</h1>
      <p>
        Choose a radiologist, then the image you want them to review. You pay their fee before they see it.
      </p>
      {isPatient && user && (
        <Form
          className="d-flex flex-wrap gap-2 align-items-end mb-4"
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            setIsPickerOpen(true);
          }}
        >
          <Form.Group controlId="second-opinion-radiologist">
            <Form.Label>Radiologist</Form.Label>
            <Form.Select value={chosen} onChange={(event) => setChosen(event.target.value)}>
              <option value="">Choose a radiologist</option>
              {radiologists.data?.map((r) => (
                <option key={r.uid} value={r.uid}>
                  {displayName(r)} — {r.expertise}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Button type="submit" disabled={!chosen}>
            Go to Image Selection
          </Button>
        </Form>
      )}
      {!user && (
        <Alert variant="info" className="d-flex flex-wrap justify-content-between align-items-center gap-2">
          <span>Create a free patient account to ask one of our radiologists for a second opinion.</span>
          <LinkButton to={PATHS.signUp}>Sign up here</LinkButton>
        </Alert>
      )}
      {radiologists.isPending && <PageSpinner label="Loading radiologists…" />}
      {radiologists.isError && <Alert variant="warning">The radiologists could not be loaded.</Alert>}
      <Row xs={1} md={2} lg={3} className="g-4">
        {radiologists.data?.map((radiologist) => (
          <Col key={radiologist.uid}>
            <RadiologistCard radiologist={radiologist} />
          </Col>
        ))}
      </Row>
      {isPatient && user && (
        <ImagePickerModal
          patientUid={user.uid}
          isOpen={isPickerOpen}
          error={error}
          isSubmitting={isSubmitting}
          onClose={() => setIsPickerOpen(false)}
          onConfirm={(imageUid) => void handleConfirm(imageUid)}
        />
      )}
    </Container>
  );
}
