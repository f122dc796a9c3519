/** DICOMweb answers for tests, built as DICOM JSON (PS3.18 F.2) and checked by the shared schema. */
import { DICOM_TAGS, dicomJsonListSchema, type DicomJsonDataset } from '@ra/shared';
import { SIGNATURES } from './files';

/** An attribute with one value, or none (DICOM JSON leaves `Value` out of an empty attribute). */
function attribute(vr: string, value: string | number | undefined) {
  return value === undefined || value === '' ? { vr } : { vr, Value: [value] };
}

export interface SeriesFixture {
  uid: string;
  modality: string;
  number: number;
  description?: string;
  instances: number;
}

/** A QIDO-RS answer for `/studies/{study}/series`. */
export function seriesAnswer(studyUid: string, ...series: SeriesFixture[]): DicomJsonDataset[] {
  return dicomJsonListSchema.parse(
    series.map((item) => ({
      [DICOM_TAGS.studyInstanceUid]: attribute('UI', studyUid),
      [DICOM_TAGS.seriesInstanceUid]: attribute('UI', item.uid),
      [DICOM_TAGS.modality]: attribute('CS', item.modality),
      [DICOM_TAGS.seriesNumber]: attribute('IS', item.number),
      [DICOM_TAGS.seriesDescription]: attribute('LO', item.description),
      [DICOM_TAGS.numberOfSeriesRelatedInstances]: attribute('IS', item.instances),
    })),
  );
}

export const answers = {
  dicomJson: (body: DicomJsonDataset[]) =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/dicom+json' },
    }),
  json: (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  jpeg: () =>
    new Response(new Uint8Array(SIGNATURES.jpeg), { status: 200, headers: { 'content-type': 'image/jpeg' } }),
  notFound: () => answers.json(404, { error: 'Not Found' }),
  serverError: () => answers.json(500, { error: 'Internal Server Error' }),
};

export interface RecordedCall {
  path: string;
  accept: string | null;
  authorization: string | null;
}

/** Makes one answer; a promise that has not settled keeps the request pending. */
export type Answerer = () => Response | Promise<Response>;

/**
 * A fetch stub answering by path: each path's answers in turn, the last one again after that.
 * Unknown paths fail the request, so a call the test did not expect shows up as an error state.
 */
export function stubFetchByPath(routes: Record<string, Answerer | Answerer[]>) {
  const calls: RecordedCall[] = [];
  const sent: { path: string; method: string; body: unknown }[] = [];
  const counts = new Map<string, number>();
  const fetchStub = async (input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ path: input, accept: headers.get('accept'), authorization: headers.get('authorization') });
    if (typeof init?.body === 'string') {
      sent.push({ path: input, method: init.method ?? 'GET', body: JSON.parse(init.body) as unknown });
    }
    const route = routes[input];
    if (!route) {
      throw new Error(`unexpected fetch ${input}`);
    }
    const list = Array.isArray(route) ? route : [route];
    const seen = counts.get(input) ?? 0;
    counts.set(input, seen + 1);
    return list[Math.min(seen, list.length - 1)]!();
  };
  return {
    fetchStub,
    calls,
    callsTo: (path: string) => calls.filter((call) => call.path === path),
    /** The JSON bodies sent, in order. */
    sent,
  };
}
