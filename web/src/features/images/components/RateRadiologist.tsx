import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQueryClient } from '@tanstack/react-query';
import type { Author } from '@ra/shared';
import { StarInput } from '../../../components/Stars';
import { ApiError } from '../../../lib/api-client';
import { rateRadiologist } from '../api/rate';

/** 'Rate your radiologist!' with the 'Leave a Review' modal, for the radiologists who wrote on this image. */
export function RateRadiologist({ radiologists }: { radiologists: Author[] }) {
  const queryClient = useQueryClient();
  const [isOpen, setIsOpen] = useState(false);
  const [radiologist, setRadiologist] = useState('');
  const [rating, setRating] = useState(0);
  const [result, setResult] = useState<{ isError: boolean; message: string } | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!radiologist) {
      setResult({ isError: true, message: 'Please select a radiologist.' });
      return;
    }
    if (rating === 0) {
      setResult({ isError: true, message: 'Please choose from 1 to 5 stars.' });
      return;
    }
    setIsSaving(true);
    try {
      const response = await rateRadiologist({ uid: radiologist, rating });
      setResult({ isError: false, message: response.msg });
      await queryClient.invalidateQueries({ queryKey: ['radiologists'] });
    } catch (err) {
      setResult({
        isError: true,
        message: err instanceof ApiError ? err.message : 'The rating could not be saved.',
      });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Card className="mt-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Rate your radiologist!
        </Card.Title>
        <Button
          variant="outline-primary"
          onClick={() => {
            setResult(null);
            setIsOpen(true);
          }}
        >
          Leave a Review
        </Button>
      </Card.Body>
      <Modal show={isOpen} onHide={() => setIsOpen(false)} aria-labelledby="review-title">
        <Form onSubmit={(event) => void handleSubmit(event)}>
          <Modal.Header closeButton>
            <Modal.Title id="review-title">Leave a Review</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Form.Group className="mb-3" controlId="review-radiologist">
              <Form.Label>Radiologist</Form.Label>
              <Form.Select value={radiologist} onChange={(event) => setRadiologist(event.target.value)}>
                <option value="">Choose a radiologist</option>
                {radiologists.map((author) => (
                  <option key={author.uid} value={author.uid}>
                    {author.full_name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <StarInput value={rating} onChange={setRating} name="review-stars" />
            {result && (
              <Alert variant={result.isError ? 'danger' : 'success'} className="mt-3 mb-0">
                {result.message}
              </Alert>
            )}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={() => setIsOpen(false)}>
              Close
            </Button>
            <Button type="submit" disabled={isSaving}>
              Submit
            </Button>
          </Modal.Footer>
        </Form>
      </Modal>
    </Card>
  );
}
