import { Link } from 'react-router';
import { displayName, toRoleName, type StaffMember } from '@ra/shared';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { PATHS } from '../../../lib/paths';

/** A patient's physician and the radiologists they have paid. */
export function CareTeam({ staff }: { staff: StaffMember[] }) {
  return (
    <section className="mb-4" aria-labelledby="care-team-heading">
      <h2 id="care-team-heading" className="h5">
        Your care team
      </h2>
      {staff.length === 0 ? (
        <p className="text-body-secondary">
          You have no care team yet. Your physician will add you as their patient.
        </p>
      ) : (
        <ul className="list-unstyled mb-0">
          {staff.map((member) => (
            <li key={member.uid} className="d-flex align-items-center gap-3 mb-2">
              <ProfilePicture url={member.profile_image_url} className="avatar-sm rounded-circle" />
              <div>
                <div className="fw-semibold">{displayName(member)}</div>
                <div className="small text-body-secondary">{toRoleName(member.role)}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="small mt-2 mb-0">
        <Link to={PATHS.accessHistory}>See who has viewed your records</Link>
      </p>
    </section>
  );
}
