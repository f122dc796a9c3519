import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  updateEmailResponseSchema,
  type Me,
  type Profile,
  type ProfileResponse,
  type StaffMember,
} from '@ra/shared';
import { renderPage, stubFetch } from '../../../test/render-page';
import { ProfilePage } from './ProfilePage';

const OPTED_IN = 'You are opted in to ratings: patients whose images you have reviewed can rate you.';
const OPTED_OUT = 'You are opted out of ratings: patients cannot rate you.';

const RADIOLOGIST: Profile = {
  uid: '0b6f2f7e-2222-4a2b-8c3d-000000000001',
  title: 'Dr.',
  first_name: 'Rita',
  last_name: 'Ray',
  email: 'rita@example.com',
  dob: '1980-07-04',
  profile_image_url: null,
  profile_image_processing: false,
  bio: 'Reads brain and spine scans.',
  expertise: 'Neuroradiology',
  years_of_exp: 20,
  allow_ratings: true,
  role: 'RADIOLOGIST',
};

const PHYSICIAN: Profile = {
  ...RADIOLOGIST,
  uid: '0b6f2f7e-2222-4a2b-8c3d-000000000002',
  first_name: 'Phil',
  last_name: 'Heart',
  email: 'phil@example.com',
  bio: 'Cardiology for twenty years.',
  expertise: '',
  years_of_exp: 0,
  allow_ratings: false,
  role: 'PHYSICIAN',
};

const PATIENT: Profile = {
  ...PHYSICIAN,
  uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
  title: 'Ms.',
  first_name: 'Paula',
  last_name: 'Patient',
  email: 'paula@example.com',
  dob: '1990-03-04',
  bio: '',
  role: 'PATIENT',
};

const CARE_TEAM: StaffMember[] = [
  {
    uid: PHYSICIAN.uid,
    role: 'PHYSICIAN',
    title: 'Dr.',
    first_name: 'Phil',
    last_name: 'Heart',
    profile_image_url: null,
  },
  {
    uid: RADIOLOGIST.uid,
    role: 'RADIOLOGIST',
    title: 'Dr.',
    first_name: 'Rita',
    last_name: 'Ray',
    profile_image_url: null,
  },
];

function answer(profile: Profile, staff: StaffMember[] = []): [number, ProfileResponse] {
  return [200, { profile, staff }];
}

function meOf(profile: Profile): Me {
  const role =
    profile.role === 'PATIENT' ? 'Patient' : profile.role === 'PHYSICIAN' ? 'Physician' : 'Radiologist';
  return {
    uid: profile.uid,
    email: profile.email,
    displayName: `${profile.first_name} ${profile.last_name}`,
    role,
    email_verified: true,
    mfa_enabled: false,
  };
}

/** Renders the page for `profile` with fetch answering `responses` in order (the first is the profile). */
function renderProfile(
  profile: Profile,
  responses: [number, unknown][],
  reloadUser = () => Promise.resolve(true),
) {
  const { fetchStub, calls } = stubFetch(...responses);
  vi.stubGlobal('fetch', fetchStub);
  renderPage(<ProfilePage />, { path: '/profile', auth: { user: meOf(profile), reloadUser } });
  return { calls, user: userEvent.setup() };
}

async function openEdit(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
}

describe('ProfilePage', () => {
  it("shows a radiologist's details, bio, rating preference and patients link, and no email change", async () => {
    const { calls, user } = renderProfile(RADIOLOGIST, [answer(RADIOLOGIST)]);
    expect(await screen.findByRole('heading', { name: 'Dr. Rita Ray' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Your profile picture' })).toHaveAttribute(
      'src',
      '/default-avatar.svg',
    );
    expect(screen.getByText('rita@example.com')).toBeInTheDocument();
    expect(screen.getByText('July 4, 1980')).toBeInTheDocument();
    expect(screen.getByText('Reads brain and spine scans.')).toHaveClass('text-pre-wrap');
    expect(screen.getByText(OPTED_IN)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View My Patients' })).toHaveAttribute('href', '/patients');
    expect(screen.queryByRole('heading', { name: 'Your care team' })).not.toBeInTheDocument();
    expect(calls).toEqual([{ url: '/api/user/profile', body: undefined }]);

    await openEdit(user);
    expect(screen.getByLabelText('Bio')).toHaveValue('Reads brain and spine scans.');
    expect(screen.getByLabelText('Bio')).toHaveAttribute('rows', '12');
    expect(screen.getByRole('radio', { name: 'Opt In' })).toBeChecked();
    expect(screen.getByLabelText('Change Picture')).toHaveAttribute('type', 'file');
    expect(screen.queryByRole('button', { name: 'Update Email' })).not.toBeInTheDocument();
  });

  it("lists a patient's care team, without a bio in view or edit mode", async () => {
    const { user } = renderProfile(PATIENT, [answer(PATIENT, CARE_TEAM)]);
    const team = within(await screen.findByRole('region', { name: 'Your care team' }));
    const members = team.getAllByRole('listitem');
    expect(members).toHaveLength(2);
    expect(members[0]).toHaveTextContent('Dr. Phil Heart');
    expect(members[0]).toHaveTextContent('Physician');
    expect(members[1]).toHaveTextContent('Dr. Rita Ray');
    expect(members[1]).toHaveTextContent('Radiologist');
    expect(team.getByRole('link', { name: 'See who has viewed your records' })).toHaveAttribute(
      'href',
      '/access-history',
    );
    expect(screen.getByRole('heading', { name: 'Ms. Paula Patient' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Bio' })).not.toBeInTheDocument();
    expect(screen.queryByText(OPTED_OUT)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View My Patients' })).not.toBeInTheDocument();

    await openEdit(user);
    expect(screen.queryByLabelText('Bio')).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Opt Out' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Email' })).toBeInTheDocument();
  });

  it('looks again every 2 seconds while a new picture is being prepared, and stops when it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const preparing = {
        ...RADIOLOGIST,
        profile_image_url: '/files/original',
        profile_image_processing: true,
      };
      const ready = { ...preparing, profile_image_url: '/files/crop', profile_image_processing: false };
      const { calls } = renderProfile(preparing, [answer(preparing), answer(ready)]);
      expect(await screen.findByText('Your new picture is being prepared…')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2000);
      await waitFor(() =>
        expect(screen.getByRole('img', { name: 'Your profile picture' })).toHaveAttribute(
          'src',
          '/files/crop',
        ),
      );
      expect(screen.queryByText('Your new picture is being prepared…')).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(6000);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers to try again when the profile cannot be loaded', async () => {
    const { user } = renderProfile(PATIENT, [[500, { error: 'Something went wrong.' }], answer(PATIENT)]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your profile could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Ms. Paula Patient' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('tells a patient without a care team how to get one', async () => {
    renderProfile(PATIENT, [answer(PATIENT, [])]);
    expect(
      await screen.findByText('You have no care team yet. Your physician will add you as their patient.'),
    ).toBeInTheDocument();
  });

  it('saves only a changed bio, even a cleared one, and shows it without a reload', async () => {
    const { calls, user } = renderProfile(PHYSICIAN, [
      answer(PHYSICIAN),
      [200, { success: true }],
      answer({ ...PHYSICIAN, bio: '' }),
    ]);
    await openEdit(user);
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText('Bio'), '  ');
    expect(save).toBeDisabled();
    await user.clear(screen.getByLabelText('Bio'));
    expect(save).toBeEnabled();
    await user.click(save);

    expect(await screen.findByText('You have not written a bio yet.')).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent('Saved profile successfully!');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(calls.slice(1)).toEqual([
      { url: '/api/user/profile', body: { bio: '' } },
      { url: '/api/user/profile', body: undefined },
    ]);
  });

  it('keeps the edits and shows the sentence when saving fails', async () => {
    const { user } = renderProfile(PHYSICIAN, [
      answer(PHYSICIAN),
      [400, { errors: [{ msg: 'Bio is too long.', path: 'bio' }] }],
    ]);
    await openEdit(user);
    await user.type(screen.getByLabelText('Bio'), ' More.');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Bio is too long.');
    expect(screen.getByLabelText('Bio')).toHaveValue('Cardiology for twenty years. More.');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(screen.queryByText('Saved profile successfully!')).not.toBeInTheDocument();
  });

  it('refuses a picture over 10 MB, previews a chosen one, and removes the picture', async () => {
    const createObjectURL = vi.fn(() => 'blob:preview');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const withPicture = { ...PHYSICIAN, profile_image_url: '/files/phil.webp' };
    const { calls, user } = renderProfile(withPicture, [
      answer(withPicture),
      [200, { success: true }],
      answer(PHYSICIAN),
    ]);
    await openEdit(user);
    const save = screen.getByRole('button', { name: 'Save Changes' });
    const input = screen.getByLabelText('Change Picture');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif,image/tiff');

    const tooLarge = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(input, tooLarge);
    expect(screen.getByText('The picture must be at most 10 MB.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(save).toBeDisabled();

    await user.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(screen.queryByText('The picture must be at most 10 MB.')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Preview of your new picture' })).toHaveAttribute(
      'src',
      'blob:preview',
    );
    expect(save).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Remove Picture' }));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview');
    expect(screen.getByRole('img', { name: 'Your profile picture' })).toHaveAttribute(
      'src',
      '/default-avatar.svg',
    );
    await user.click(save);
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(calls[1]).toEqual({ url: '/api/user/profile', body: { profile_image_url: null } });
  });

  it('sends the rating preference when a radiologist opts out', async () => {
    const { calls, user } = renderProfile(RADIOLOGIST, [
      answer(RADIOLOGIST),
      [200, { success: true }],
      answer({ ...RADIOLOGIST, allow_ratings: false }),
    ]);
    await openEdit(user);
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(screen.getByRole('group', { name: 'Ratings' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Opt Out' }));
    expect(save).toBeEnabled();
    await user.click(screen.getByRole('radio', { name: 'Opt In' }));
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Opt Out' }));
    await user.click(save);

    expect(await screen.findByText(OPTED_OUT)).toBeInTheDocument();
    expect(calls[1]).toEqual({ url: '/api/user/profile', body: { enableRatingSystem: false } });
  });

  it('checks the Update Email fields, then shows the server sentence or the general failure', async () => {
    const { calls, user } = renderProfile(PATIENT, [
      answer(PATIENT),
      [400, { errors: [{ msg: 'Incorrect password', path: 'password' }] }],
      [500, undefined],
      [409, { success: false, msg: 'This email is already in use.' }],
      [500, { error: 'Something went wrong.' }],
    ]);
    await openEdit(user);
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Email' }));
    expect(dialog.getByLabelText('New email')).toHaveFocus();
    expect(dialog.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');

    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Email and password are required.');
    expect(dialog.getByLabelText('New email')).toHaveAttribute('aria-invalid', 'true');
    await user.type(dialog.getByLabelText('New email'), 'New@Example.com');
    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Email and password are required.');
    expect(dialog.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(1);

    await user.type(dialog.getByLabelText('Password'), 'wrong password');
    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByText('Incorrect password')).toBeInTheDocument();
    expect(calls[1]).toEqual({
      url: '/api/user/email',
      body: { email: 'new@example.com', password: 'wrong password' },
    });

    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByText('Failed to update email.')).toBeInTheDocument();
    expect(dialog.getAllByRole('alert')).toHaveLength(1);

    // A refusal's own sentence, then a server error's general sentence is replaced by the fallback.
    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByText('This email is already in use.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Update Email' }));
    expect(await dialog.findByText('Failed to update email.')).toBeInTheDocument();
    expect(calls).toHaveLength(5);
  });

  it('asks for an email change, says where the link went and clears the password', async () => {
    const reloadUser = vi.fn(() => Promise.resolve(true));
    const { calls, user } = renderProfile(
      PHYSICIAN,
      [answer(PHYSICIAN), [200, updateEmailResponseSchema.parse({ success: true, pending: true })]],
      reloadUser,
    );
    await openEdit(user);
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Email' }));
    await user.type(dialog.getByLabelText('New email'), 'new@example.com');
    await user.type(dialog.getByLabelText('Password'), 'right password');
    await user.click(dialog.getByRole('button', { name: 'Update Email' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'We sent a link to new@example.com. Your email address changes when you open it.',
    );
    expect(dialog.getByLabelText('Password')).toHaveValue('');
    // Nothing changed yet: the signed-in user and the profile stay as they are.
    expect(reloadUser).not.toHaveBeenCalled();
    expect(calls.map((call) => call.url)).toEqual(['/api/user/profile', '/api/user/email']);
  });
});
