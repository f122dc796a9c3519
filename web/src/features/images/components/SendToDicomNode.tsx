import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ApiError } from '../../../lib/api-client';
import { useToasts } from '../../../components/toasts/toast-context';
import { sendStudy, useDicomNodes } from '../api/dicom-nodes';

/**
 * Sends the study to one of the physician's DICOM nodes (a PACS or workstation the operator
 * registered with a host and port). Shown only when they have such a node; the outcome arrives
 * later as a notification.
 */
export function SendToDicomNode({ itemUid }: { itemUid: string }) {
  const toasts = useToasts();
  const { data } = useDicomNodes();
  const nodes = (data?.nodes ?? []).filter((node) => node.can_receive);
  const [chosen, setChosen] = useState('');
  const [isSending, setIsSending] = useState(false);
  if (nodes.length === 0) {
    return null;
  }
  const aeTitle = chosen || nodes[0]!.ae_title;

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setIsSending(true);
    try {
      await sendStudy(itemUid, aeTitle);
      toasts.show({
        variant: 'success',
        message: `Sending the study to ${aeTitle}. You will get a notification when it is done.`,
      });
    } catch (err) {
      toasts.show({
        variant: 'danger',
        message: err instanceof ApiError ? err.message : 'The study could not be sent.',
      });
    } finally {
      setIsSending(false);
    }
  }

  return (
    <Form
      onSubmit={(event) => void handleSubmit(event)}
      className="mt-3 d-flex flex-wrap gap-2 align-items-end"
    >
      <Form.Group controlId="send-dicom-node">
        <Form.Label>Send to DICOM node</Form.Label>
        <Form.Select value={aeTitle} onChange={(event) => setChosen(event.target.value)}>
          {nodes.map((node) => (
            <option key={node.ae_title} value={node.ae_title}>
              {node.ae_title} ({node.host}:{node.port})
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Button type="submit" variant="outline-primary" disabled={isSending}>
        {isSending ? 'Sending…' : 'Send study'}
      </Button>
    </Form>
  );
}
