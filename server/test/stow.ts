import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { dicomJsonDatasetSchema } from '@ra/shared';
import { linkPatient } from '../src/modules/patients/patients.repository.js';
import { createPatient, createPhysician, signIn } from './factories.js';
import type { TestApp } from './test-app.js';
import {
  multipartRelatedContentType,
  newBoundary,
  writeMultipartRelated,
} from '../src/lib/multipart-related/multipart-related.js';

/** A STOW-RS request (`query` e.g. "?patient=<uid>") of Part 10 files as multipart/related parts of `type`. */
export async function stow(
  app: FastifyInstance,
  token: string,
  parts: Buffer[],
  query: string,
  options: { type?: string; userAgent?: string } = {},
) {
  const type = options.type ?? 'application/dicom';
  const boundary = newBoundary();
  const body = await buffer(
    writeMultipartRelated(Readable.from(parts.map((part) => ({ contentType: type, body: part }))), boundary),
  );
  return app.inject({
    method: 'POST',
    url: `/dicomweb/studies${query}`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': multipartRelatedContentType(boundary, type),
      accept: 'application/dicom+json',
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    },
    payload: body,
  });
}

/** A signed-in physician with one patient of their own, in `t`; the patient as `patient` says. */
export async function physicianWithPatient(
  t: TestApp,
  options: { emailVerified?: boolean; patient?: Parameters<typeof createPatient>[1] } = {},
) {
  const physician = await createPhysician(t.database.db, { emailVerified: options.emailVerified });
  const patient = await createPatient(t.database.db, options.patient);
  await linkPatient(t.database.db, patient.id, physician.id);
  const signedIn = async (user: { id: string; email: string }) => ({
    id: user.id,
    token: (await signIn(t.app, user.email)).token,
  });
  return { physician: await signedIn(physician), patient: await signedIn(patient) };
}

/** The failure reasons (0008,1197) of a STOW-RS answer's FailedSOPSequence, in order. */
export function stowFailureReasons(body: unknown): unknown[] {
  const items = (dicomJsonDatasetSchema.parse(body)['00081198']?.Value ?? []) as Record<
    string,
    { Value?: unknown[] }
  >[];
  return items.map((item) => item['00081197']?.Value?.[0]);
}
