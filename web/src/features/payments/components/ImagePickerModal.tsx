import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { ImageThumbnail } from '../../../components/ImageThumbnail';
import { PageSpinner } from '../../../components/PageSpinner';
import { StudyFacts } from '../../../components/StudyFacts';
import { itemTitle, physicianNoteOf } from '../../../lib/item-label';
// The patient's own images are listed by the images feature.
import { usePatientImages } from '../../../lib/api/patient-images';

interface ImagePickerModalProps {
  patientUid: string;
  isOpen: boolean;
  error: string | null;
  isSubmitting: boolean;
  onClose: () => void;
  onConfirm: (imageUid: string) => void;
}

export function ImagePickerModal({
  patientUid,
  isOpen,
  error,
  isSubmitting,
  onClose,
  onConfirm,
}: ImagePickerModalProps) {
  const images = usePatientImages(patientUid, { enabled: isOpen });
  const [picked, setPicked] = useState<string | null>(null);
  const list = images.data?.pages.flatMap((page) => page.images) ?? [];
  return (
    <Modal show={isOpen} onHide={onClose} size="lg" aria-labelledby="image-picker-title">
      <Modal.Header closeButton>
        <Modal.Title id="image-picker-title">Select image for a second opinion</Modal.Title>
      </Modal.Header>
      <Modal.Body className="image-picker">
        {images.isPending && <PageSpinner label="Loading your images…" />}
        {images.isSuccess && list.length === 0 && <p>You have no images yet.</p>}
        <Row xs={2} md={4} className="g-3" role="radiogroup" aria-label="Your images">
          {list.map((image) => (
            <Col key={image.uid}>
              <button
                type="button"
                role="radio"
                aria-checked={picked === image.uid}
                aria-label={itemTitle(image)}
                aria-describedby={`picker-note-${image.uid}`}
                className={`thumbnail-button w-100 ${picked === image.uid ? 'picked' : ''}`}
                onClick={() => setPicked(image.uid)}
              >
                <ImageThumbnail image={image} alt="" />
                {image.study ? (
                  <StudyFacts study={image.study} className="mt-1 mx-auto" />
                ) : (
                  <div className="small">{itemTitle(image)}</div>
                )}
                <div id={`picker-note-${image.uid}`} className="small text-body-secondary text-truncate">
                  {physicianNoteOf(image) ?? 'No note from your physician'}
                </div>
              </button>
            </Col>
          ))}
        </Row>
        {images.hasNextPage && (
          <Button variant="link" onClick={() => void images.fetchNextPage()}>
            Load more
          </Button>
        )}
      </Modal.Body>
      <Modal.Footer>
        {error && (
          <Alert variant="danger" className="w-100 mb-2">
            {error}
          </Alert>
        )}
        <Button variant="outline-secondary" onClick={onClose}>
          Close
        </Button>
        <Button disabled={!picked || isSubmitting} onClick={() => picked && onConfirm(picked)}>
          {isSubmitting ? 'Creating invoice…' : 'Confirm for Payment'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
