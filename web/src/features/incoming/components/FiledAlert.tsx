import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { imageViewPath } from '../../../lib/paths';

/**
 * The study just filed, with a link to it. Focus moves here because the row the physician was on
 * has left the list.
 */
export function FiledAlert({ patientName, itemUid }: { patientName: string; itemUid: string }) {
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => message.current?.focus(), [itemUid]);
  return (
    <Alert variant="success">
      <p className="mb-0" tabIndex={-1} ref={message}>
        Filed under {patientName}. <Link to={imageViewPath(itemUid)}>View the study</Link>
      </p>
    </Alert>
  );
}
