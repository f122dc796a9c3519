import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { AnalysisStatus, WorklistRequest } from '@ra/shared';
import { ImageThumbnail } from '../../../components/ImageThumbnail';
import { StudyFacts } from '../../../components/StudyFacts';
import { formatDateTime } from '../../../lib/dates';
import { itemName } from '../../../lib/item-label';
import { imageViewPath } from '../../../lib/paths';
import { useWorklist } from '../api/worklist';

const STATUS: Record<AnalysisStatus, { label: string; bg: string; text?: 'dark' }> = {
  waiting: { label: 'Waiting', bg: 'warning', text: 'dark' },
  draft: { label: 'In progress', bg: 'info', text: 'dark' },
  done: { label: 'Analysis written', bg: 'success' },
};

function RequestRow({ request }: { request: WorklistRequest }) {
  const status = STATUS[request.analysis_status];
  const name = itemName(request.item);
  return (
    <tr>
      <td className="worklist-thumbnail">
        <ImageThumbnail image={request.item} alt={`${name} of ${request.patient.full_name}`} />
      </td>
      <td>
        <div className="fw-semibold">{request.patient.full_name}</div>
        {request.item.study ? <StudyFacts study={request.item.study} /> : <div className="small">{name}</div>}
      </td>
      <td className="small">{formatDateTime(request.paid_at)}</td>
      <td className="small worklist-note">
        {request.physician_note ?? <span className="text-body-secondary">No note from the physician</span>}
      </td>
      <td>
        <Badge bg={status.bg} text={status.text}>
          {status.label}
        </Badge>
      </td>
      <td>
        <Link
          to={imageViewPath(request.item.uid)}
          aria-label={`Open ${name} of ${request.patient.full_name}`}
        >
          Open
        </Link>
      </td>
    </tr>
  );
}

/** The radiologist's worklist on their dashboard: what patients have paid them to read. */
export function WorklistSection() {
  const worklist = useWorklist();
  const requests = worklist.data?.requests ?? [];
  const waiting = requests.filter((request) => request.analysis_status !== 'done').length;
  return (
    <section aria-labelledby="worklist-heading" className="mb-5">
      <h2 id="worklist-heading" className="h4 mb-3">
        Worklist
        {worklist.isSuccess && (
          <Badge bg="secondary" className="ms-2 align-middle" aria-label={`${waiting} waiting`}>
            {waiting}
          </Badge>
        )}
      </h2>
      {worklist.isPending ? (
        <div className="d-flex align-items-center gap-2" role="status">
          <Spinner animation="border" size="sm" aria-hidden="true" />
          <span>Loading your worklist…</span>
        </div>
      ) : worklist.isError ? (
        <Alert variant="danger" className="d-flex justify-content-between align-items-center">
          <span>Your worklist could not be loaded.</span>
          <Button variant="outline-danger" size="sm" onClick={() => void worklist.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : requests.length === 0 ? (
        <p>No patient has asked for your opinion yet. Paid requests appear here.</p>
      ) : (
        <Table responsive hover className="align-middle">
          <caption className="visually-hidden">Paid requests, waiting ones first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Preview</span>
              </th>
              <th scope="col">Patient and item</th>
              <th scope="col">Paid</th>
              <th scope="col">Physician’s note</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {requests.map((request) => (
              <RequestRow key={request.invoice_uid} request={request} />
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
