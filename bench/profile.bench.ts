import type { ProfileResponse } from '@ra/shared';
import type { Api } from './lib/api.js';
import { load, type LoadRow } from './lib/load.js';
import { median, noisyJpeg } from './lib/measure.js';

const PICTURES = Number(process.env.BENCH_PICTURES ?? 20);

async function waitForCrop(api: Api): Promise<string> {
  for (;;) {
    const { profile } = await api.json<ProfileResponse>('GET', '/api/user/profile');
    if (!profile.profile_image_processing && profile.profile_image_url) {
      return profile.profile_image_url;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Seconds from PUT /api/user/profile's answer to the 100×100 crop being served, for 12-megapixel photos. */
export async function pictureCropLatency(radiologist: Api) {
  const jpeg = await noisyJpeg(4000, 3000);
  const latencies: number[] = [];
  let url = '';
  for (let i = 0; i < PICTURES; i += 1) {
    const upload = await radiologist.upload(jpeg, jpeg.length, 'profile');
    await radiologist.json('PUT', '/api/user/profile', { profile_image_url: upload });
    const start = process.hrtime.bigint();
    url = await waitForCrop(radiologist);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  return { median: median(latencies), max: Math.max(...latencies), bytes: jpeg.length, count: PICTURES, url };
}

/** Profile reads and writes, the public picture, and the landing list once a radiologist has a picture. */
export async function profileRows(patient: Api, radiologist: Api, pictureUrl: string): Promise<LoadRow[]> {
  return [
    await load('GET /api/user/profile (patient, with care team)', {
      url: `${patient.base}/api/user/profile`,
      headers: { authorization: patient.authorization },
    }),
    await load('PUT /api/user/profile (bio)', {
      url: `${radiologist.base}/api/user/profile`,
      method: 'PUT',
      headers: { authorization: radiologist.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ bio: 'Neuroradiology second opinions within two working days.' }),
    }),
    await load('GET /api/profile-pictures/{id}.webp (public 100×100)', {
      url: `${radiologist.base}${pictureUrl}`,
    }),
    await load('GET /api/user/meet-our-radiologists (with a picture)', {
      url: `${radiologist.base}/api/user/meet-our-radiologists`,
    }),
  ];
}
