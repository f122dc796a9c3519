import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { displayName, formatDollars, type Radiologist } from '@ra/shared';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { Stars } from '../../../components/Stars';

export function RadiologistCard({ radiologist }: { radiologist: Radiologist }) {
  const [isBioOpen, setIsBioOpen] = useState(false);
  const bioId = `bio-${radiologist.uid}`;
  return (
    <Card className="h-100 shadow-sm" data-testid="radiologist-card">
      <Card.Body>
        <div className="d-flex gap-3 align-items-center mb-2">
          <ProfilePicture url={radiologist.profile_image_url} className="rounded-circle" />
          <div>
            <Card.Title as="h2" className="h5 mb-1">
              {displayName(radiologist)}
            </Card.Title>
            <Stars average={radiologist.average_rating} count={radiologist.rating_count} />
            <div className="small">{radiologist.expertise}</div>
            <div className="small">Second opinion: {formatDollars(radiologist.fee)}</div>
          </div>
        </div>
        <Button
          variant="link"
          className="px-0"
          aria-expanded={isBioOpen}
          aria-controls={bioId}
          onClick={() => setIsBioOpen((open) => !open)}
        >
          {isBioOpen ? 'Hide bio' : 'Show bio'}
        </Button>
        {isBioOpen && (
          <p id={bioId} className="mb-0 text-pre-wrap">
            {radiologist.bio || '[no bio available]'}
          </p>
        )}
      </Card.Body>
    </Card>
  );
}
