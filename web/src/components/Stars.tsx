const STARS = [1, 2, 3, 4, 5];

/** A read-only star row showing the floor of an average rating (`average_rating`, docs/api.md §7.3). */
export function Stars({ average, count }: { average: number | null; count: number }) {
  const filled = average === null ? 0 : Math.floor(average);
  const label =
    average === null
      ? 'Not rated yet'
      : `Rated ${average} out of 5 by ${count} ${count === 1 ? 'patient' : 'patients'}`;
  return (
    <span className="stars" role="img" aria-label={label}>
      {STARS.map((star) => (
        <span
          key={star}
          aria-hidden="true"
          className={star <= filled ? 'text-warning' : 'text-body-tertiary'}
        >
          ★
        </span>
      ))}
      <span className="small text-body-secondary ms-1" aria-hidden="true">
        ({count})
      </span>
    </span>
  );
}

/** Choosing 1 to 5 stars: a radio group, so arrows and Space work as well as clicks. */
export function StarInput({
  value,
  onChange,
  name,
}: {
  value: number;
  onChange: (value: number) => void;
  name: string;
}) {
  return (
    <fieldset className="star-input">
      <legend className="fs-6">Your rating</legend>
      {STARS.map((star) => (
        <label key={star} className={`fs-3 me-1 ${star <= value ? 'text-warning' : 'text-body-tertiary'}`}>
          <input
            type="radio"
            className="visually-hidden-focusable-input"
            name={name}
            value={star}
            checked={value === star}
            onChange={() => onChange(star)}
            aria-label={`${star} ${star === 1 ? 'star' : 'stars'}`}
          />
          <span aria-hidden="true">★</span>
        </label>
      ))}
    </fieldset>
  );
}
