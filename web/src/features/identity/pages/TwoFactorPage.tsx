import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PATHS } from '../../../lib/paths';
import { TwoFactorSection } from '../../../components/TwoFactorSection';

/**
 * Where staff land when the operator requires two-factor sign-in and theirs is off: every other
 * page's data is refused until it is on.
 */
export function TwoFactorPage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  return (
    <Container className="py-5">
      <Card className="mx-auto shadow-sm" style={{ maxWidth: '44rem' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-2">Account security</h1>
          <TwoFactorSection isRequired={params.get('required') === '1'} />
          {user?.mfa_enabled && (
            <div className="mt-3">
              <LinkButton to={PATHS.dashboard} variant="outline-primary">
                Go to your dashboard
              </LinkButton>
            </div>
          )}
        </Card.Body>
      </Card>
    </Container>
  );
}
