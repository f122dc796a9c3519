import { describe, expect, it } from 'vitest';
import type { AccessHistoryEntry } from '@ra/shared';
import { groupVisits, VISIT_GAP_MS } from './visits';

const doctor = {
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  role: 'PHYSICIAN' as const,
  full_name: 'Dr. Phil Doc',
};
const radiologist = { ...doctor, uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b12', role: 'RADIOLOGIST' as const };
const CT = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const item = {
  kind: 'study' as const,
  study: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  physician_note: null,
};

function entry(
  minutesAgo: number,
  who: AccessHistoryEntry['actor'],
  action: AccessHistoryEntry['action'],
  itemUid: string | null = null,
): AccessHistoryEntry {
  return {
    at: new Date(Date.parse('2026-11-27T12:00:00.000Z') - minutesAgo * 60_000).toISOString(),
    actor: who,
    via: 'account',
    action,
    item_uid: itemUid,
    item: itemUid ? item : null,
  };
}

describe('groupVisits', () => {
  it('makes one visit of a person’s accesses close together, each item once with its counts', () => {
    const visits = groupVisits([
      entry(0, doctor, 'download', CT),
      entry(1, doctor, 'download', CT),
      entry(2, doctor, 'view', CT),
      entry(3, doctor, 'list'),
      entry(4, doctor, 'list'),
    ]);
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      last: entry(0, doctor, 'list').at,
      first: entry(4, doctor, 'list').at,
      items: [{ uid: CT, item, views: 1, downloads: 2 }],
      others: ['list'],
    });
  });

  it('starts a new visit for another person or after a pause', () => {
    const gapMinutes = VISIT_GAP_MS / 60_000;
    const visits = groupVisits([
      entry(0, doctor, 'view', CT),
      entry(1, radiologist, 'view', CT),
      entry(2, doctor, 'view', CT),
      entry(3 + gapMinutes, doctor, 'view', CT),
    ]);
    expect(visits.map((visit) => visit.who.actor?.uid)).toEqual([
      doctor.uid,
      radiologist.uid,
      doctor.uid,
      doctor.uid,
    ]);
  });
});
