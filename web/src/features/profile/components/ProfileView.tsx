import Button from 'react-bootstrap/Button';
import { displayName, type Profile, type StaffMember } from '@ra/shared';
import { LinkButton } from '../../../components/LinkButton';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { formatBirthDate } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
import { CareTeam } from './CareTeam';

const OPTED_IN = 'You are opted in to ratings: patients whose images you have reviewed can rate you.';
const OPTED_OUT = 'You are opted out of ratings: patients cannot rate you.';

/** The profile as others know it, with what each role keeps on it. */
export function ProfileView({
  profile,
  staff,
  onEdit,
}: {
  profile: Profile;
  staff: StaffMember[];
  onEdit: () => void;
}) {
  const isStaff = profile.role === 'PHYSICIAN' || profile.role === 'RADIOLOGIST';
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-4">
        <ProfilePicture
          url={profile.profile_image_url}
          alt="Your profile picture"
          className="rounded-circle"
        />
        <div>
          <h2 className="h4 mb-1">{displayName(profile)}</h2>
          {profile.profile_image_processing && (
            <p className="small text-body-secondary mb-0" role="status">
              Your new picture is being prepared…
            </p>
          )}
        </div>
      </div>
      <dl className="row mb-4">
        <dt className="col-sm-3">Email</dt>
        <dd className="col-sm-9">{profile.email}</dd>
        <dt className="col-sm-3">Date of birth</dt>
        <dd className="col-sm-9">{formatBirthDate(profile.dob)}</dd>
      </dl>
      {isStaff && (
        <section className="mb-4" aria-labelledby="bio-heading">
          <h2 id="bio-heading" className="h5">
            Bio
          </h2>
          {profile.bio ? (
            <p className="text-pre-wrap">{profile.bio}</p>
          ) : (
            <p className="text-body-secondary">You have not written a bio yet.</p>
          )}
        </section>
      )}
      {profile.role === 'RADIOLOGIST' && <p>{profile.allow_ratings ? OPTED_IN : OPTED_OUT}</p>}
      {profile.role === 'PATIENT' && <CareTeam staff={staff} />}
      <div className="d-flex flex-wrap gap-2">
        <Button onClick={onEdit}>Edit Profile</Button>
        {isStaff && (
          <LinkButton to={PATHS.patients} variant="outline-primary">
            View My Patients
          </LinkButton>
        )}
      </div>
    </>
  );
}
