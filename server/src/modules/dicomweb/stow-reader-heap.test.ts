import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dicomJsonDatasetSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { newUid } from '../../../test/dicom-files.js';
import { hostileFile } from '../../../test/hostile-dicom.js';
import { stow } from '../../../test/stow.js';
import { linkPatient } from '../patients/patients.repository.js';

/*
 * The threads that read received files have a bounded heap (DICOM_PART_MEMORY_MB, here its least):
 * a file whose values would fill it is refused on its own, and the rest of its request is filed.
 */

let t: TestApp;
let token = '';
let patientId = '';

beforeAll(async () => {
  t = await createTestApp({ DICOM_PART_MEMORY_MB: '64' });
  const physician = await createPhysician(t.database.db);
  const patient = await createPatient(t.database.db);
  await linkPatient(t.database.db, patient.id, physician.id);
  token = (await signIn(t.app, physician.email)).token;
  patientId = patient.id;
});
afterAll(() => t.close());

describe("STOW-RS within the readers' heap", () => {
  it('refuses an instance whose text would outgrow a reader thread (0xA700) and stores the others', async () => {
    const studyUid = newUid();
    const text = Object.fromEntries(
      Array.from({ length: 5 }, (_, index) => [
        `0009${(0x1010 + index).toString(16)}`,
        { vr: 'UT', value: 'T'.repeat(10 * 1024 ** 2) },
      ]),
    );
    const heavy = hostileFile({ studyUid, elements: { '00090010': { vr: 'LO', value: 'HEAVY' }, ...text } });
    const good = [hostileFile({ studyUid }), hostileFile({ studyUid }), hostileFile({ studyUid })];
    const response = await stow(
      t.app,
      token,
      [good[0]!.bytes, heavy.bytes, good[1]!.bytes, good[2]!.bytes],
      `?patient=${patientId}&confirm_patient_mismatch=true`,
    );

    expect(response.statusCode, response.body).toBe(202);
    const answer = dicomJsonDatasetSchema.parse(response.json());
    const failed = (answer['00081198']?.Value ?? []) as Record<string, { Value?: unknown[] }>[];
    expect(failed.map((item) => item['00081197']?.Value?.[0])).toEqual([0xa700]);
    const stored = (answer['00081199']?.Value ?? []) as Record<string, { Value?: unknown[] }>[];
    expect(stored.map((item) => item['00081155']?.Value?.[0]).sort()).toEqual(
      good.map((file) => file.sopUid).sort(),
    );
    // The server goes on: the next request is read by a new thread.
    const again = hostileFile({ studyUid });
    const next = await stow(
      t.app,
      token,
      [again.bytes],
      `?patient=${patientId}&confirm_patient_mismatch=true`,
    );
    expect(next.statusCode, next.body).toBe(200);
  });
});
