import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createHospital, createRadiologist } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('reference data (public)', () => {
  it('lists hospitals sorted by name', async () => {
    await createHospital(t.database.db, 'Zeta Clinic');
    await createHospital(t.database.db, 'Alpha Hospital');
    const response = await t.app.inject({ method: 'GET', url: '/api/hospital/hospitals' });
    expect(response.statusCode).toBe(200);
    const { hospitals } = response.json();
    expect(hospitals.map((h: { name: string }) => h.name)).toEqual(['Alpha Hospital', 'Zeta Clinic']);
    expect(hospitals[0]).toEqual({ uid: expect.any(String), name: 'Alpha Hospital' });
  });

  it('lists radiologists by last name, without emails, with fee in dollars', async () => {
    const names: [string, string][] = [
      ['Wendy', 'Young'],
      ['Adam', 'Baker'],
      ['Zoe', 'Baker'],
      ['Carl', 'Moss'],
      ['Dina', 'Ortiz'],
      ['Eli', 'Park'],
      ['Fay', 'Quint'],
    ];
    for (const [firstName, lastName] of names) {
      await createRadiologist(t.database.db, { firstName, lastName, feeDollars: 149.5 });
    }
    const response = await t.app.inject({ method: 'GET', url: '/api/user/radiologists' });
    expect(response.statusCode).toBe(200);
    const { radiologists } = response.json();
    expect(
      radiologists.map((r: { last_name: string; first_name: string }) => `${r.first_name} ${r.last_name}`),
    ).toEqual(['Adam Baker', 'Zoe Baker', 'Carl Moss', 'Dina Ortiz', 'Eli Park', 'Fay Quint', 'Wendy Young']);
    expect(radiologists[0]).toEqual({
      uid: expect.any(String),
      title: 'Dr.',
      first_name: 'Adam',
      last_name: 'Baker',
      profile_image_url: null,
      expertise: 'Diagnostic',
      bio: 'Reads images.',
      years_of_exp: 10,
      average_rating: null,
      rating_count: 0,
      allow_ratings: true,
      fee: 149.5,
    });
    expect(response.body).not.toContain('@');

    const meet = await t.app.inject({ method: 'GET', url: '/api/user/meet-our-radiologists' });
    expect(meet.statusCode).toBe(200);
    const six = meet.json().radiologists;
    expect(six).toHaveLength(6);
    expect(six[0]).toEqual({
      uid: expect.any(String),
      title: 'Dr.',
      first_name: 'Adam',
      last_name: 'Baker',
      expertise: 'Diagnostic',
      profile_image_url: null,
    });
  });
});
