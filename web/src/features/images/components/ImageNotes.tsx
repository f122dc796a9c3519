import Accordion from 'react-bootstrap/Accordion';
import type { Author } from '@ra/shared';
import { KeyImageLinks } from './KeyImageLinks';

/**
 * The physicians' notes and the radiologists' opinions, in two collapsible sections (authors in
 * the order of docs/api.md §10).
 */
export function ImageNotes({ itemUid, authors }: { itemUid: string; authors: Author[] }) {
  const physicians = authors.filter((author) => author.role === 'PHYSICIAN');
  const radiologists = authors.filter((author) => author.role === 'RADIOLOGIST');
  return (
    <Accordion defaultActiveKey={['physician', 'radiologist']} alwaysOpen className="mt-4">
      <Accordion.Item eventKey="physician">
        <Accordion.Header>Your physician notes</Accordion.Header>
        <Accordion.Body>
          {physicians.length === 0 && <p className="mb-0">No notes yet.</p>}
          {physicians.map((author) => (
            <div key={author.uid} className="mb-3">
              <p className="mb-1 text-pre-wrap">{author.note || 'No note yet.'}</p>
              <KeyImageLinks itemUid={itemUid} keyImages={author.key_images} />
              <p className="small mb-0">By: {author.full_name}</p>
              {author.recommendation && (
                <p className="small mb-0">Recommended radiologist: {author.recommendation}</p>
              )}
            </div>
          ))}
        </Accordion.Body>
      </Accordion.Item>
      <Accordion.Item eventKey="radiologist">
        <Accordion.Header>Radiologist Notes</Accordion.Header>
        <Accordion.Body>
          {radiologists.length === 0 && <p className="mb-0">No opinions</p>}
          {radiologists.map((author, index) => (
            <div key={author.uid} className="mb-3">
              <p className="fw-semibold mb-1">Opinion {index + 1}:</p>
              <p className="mb-1 text-pre-wrap">{author.note}</p>
              <KeyImageLinks itemUid={itemUid} keyImages={author.key_images} />
              <p className="small mb-0">By: {author.full_name}</p>
            </div>
          ))}
        </Accordion.Body>
      </Accordion.Item>
    </Accordion>
  );
}
