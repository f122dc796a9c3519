import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { PageSpinner } from '../../../components/PageSpinner';
import { useProfile } from '../api/profile';
import { ProfileEditForm } from '../components/ProfileEditForm';
import { ProfileView } from '../components/ProfileView';
// Account security lives with identity; the profile is where people look for it.
import { TwoFactorSection } from '../../../components/TwoFactorSection';
import { useToasts } from '../../../components/toasts/toast-context';

export function ProfilePage() {
  const profile = useProfile();
  const [isEditing, setIsEditing] = useState(false);
  const toasts = useToasts();

  function handleSaved() {
    setIsEditing(false);
    toasts.show({ variant: 'success', message: 'Saved profile successfully!' });
  }

  return (
    <Container className="py-5">
      <Card className="mx-auto shadow-sm" style={{ maxWidth: '44rem' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-4">Profile</h1>
          {profile.data ? (
            isEditing ? (
              <ProfileEditForm
                profile={profile.data.profile}
                onCancel={() => setIsEditing(false)}
                onSaved={handleSaved}
              />
            ) : (
              <ProfileView
                profile={profile.data.profile}
                staff={profile.data.staff}
                onEdit={() => setIsEditing(true)}
              />
            )
          ) : profile.isError ? (
            <Alert variant="danger" className="d-flex justify-content-between align-items-center">
              <span>Your profile could not be loaded.</span>
              <Button variant="outline-danger" size="sm" onClick={() => void profile.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : (
            <PageSpinner label="Loading your profile…" />
          )}
          {!isEditing && <TwoFactorSection />}
        </Card.Body>
      </Card>
    </Container>
  );
}
