import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { ChoosePasswordForm } from '../components/ChoosePasswordForm';
import { RequestResetForm } from '../components/RequestResetForm';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <Container className="py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          <p className="mb-1">
            <Link to={PATHS.home}>Radiology Archive</Link>
          </p>
          {token ? (
            <ChoosePasswordForm token={token} isInvite={params.get('invite') === '1'} />
          ) : (
            <RequestResetForm />
          )}
        </Card.Body>
      </Card>
    </Container>
  );
}
