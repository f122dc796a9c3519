import Form from 'react-bootstrap/Form';

/** A radiologist's choice of whether patients may rate them. */
export function RatingChoice({
  allowRatings,
  disabled,
  onChange,
}: {
  allowRatings: boolean;
  disabled: boolean;
  onChange: (allowRatings: boolean) => void;
}) {
  return (
    <fieldset className="mb-4">
      <legend className="form-label fs-6">Ratings</legend>
      <Form.Check
        type="radio"
        id="profile-ratings-in"
        name="profile-ratings"
        label="Opt In"
        checked={allowRatings}
        disabled={disabled}
        onChange={() => onChange(true)}
      />
      <Form.Check
        type="radio"
        id="profile-ratings-out"
        name="profile-ratings"
        label="Opt Out"
        checked={!allowRatings}
        disabled={disabled}
        onChange={() => onChange(false)}
      />
    </fieldset>
  );
}
