import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/render-page';
import { fetchReportedAnnotations } from './api/reported-annotations';
import {
  isReportedUid,
  measurementsOf,
  measurementsOfSeries,
  measurementText,
  reportByline,
  reportName,
} from './reported-measurements';

const ITEM = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const SERIES = '1.2.826.0.1.3680043.2.1125.1.1';
const OTHER_SERIES = '1.2.826.0.1.3680043.2.1125.1.3';
const frame = (series: string, sop: string) => ({
  series_instance_uid: series,
  sop_instance_uid: sop,
  frame: 1,
});

/** An answer as the server sends it (docs/api.md §15.4). */
const BODY = {
  reports: [
    {
      series_instance_uid: '2.25.1',
      sop_instance_uid: '2.25.2',
      series_description: 'OHIF measurements',
      author: 'Dr. Rita Reader',
      content_date: '2024-05-02',
      annotations: [
        {
          kind: 'length',
          frame: frame(SERIES, `${SERIES}.7`),
          data: {
            points: [
              [10, 20],
              [30.5, 40],
            ],
          },
          label: 'Length 12.5 mm',
        },
        {
          kind: 'probe',
          frame: frame(OTHER_SERIES, `${OTHER_SERIES}.1`),
          data: { points: [[1, 2]] },
          label: '',
        },
      ],
    },
    {
      series_instance_uid: '2.25.3',
      sop_instance_uid: '2.25.4',
      series_description: '  ',
      author: '',
      content_date: '',
      annotations: [
        {
          kind: 'ellipse',
          frame: frame(SERIES, `${SERIES}.8`),
          data: {
            points: [
              [1, 1],
              [9, 5],
            ],
          },
          label: 'Area 3 mm²',
        },
      ],
    },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

async function fetched(body: unknown) {
  const { fetchStub, calls } = stubFetch([200, body]);
  vi.stubGlobal('fetch', fetchStub);
  const reports = await fetchReportedAnnotations(ITEM);
  expect(calls.map((call) => call.url)).toEqual([`/api/image/${ITEM}/reported-annotations`]);
  return reports;
}

describe('the measurements of a study’s reports', () => {
  it('parses the answer with the shared schema and labels each measurement with its report', async () => {
    const reports = await fetched(BODY);
    const [ohif, unnamed] = reports as [(typeof reports)[number], (typeof reports)[number]];

    expect(reportName(ohif)).toBe('OHIF measurements');
    expect(reportName(unnamed)).toBe('Structured report');
    expect(reportByline(ohif)).toBe('by Dr. Rita Reader, 5/2/24');
    expect(reportByline(unnamed)).toBe('');

    const measurements = measurementsOf(ohif);
    expect(measurements.map((measurement) => [measurement.uid, measurement.shownLabel])).toEqual([
      ['report:2.25.2:1', 'OHIF measurements: Length 12.5 mm'],
      ['report:2.25.2:2', 'OHIF measurements'],
    ]);
    expect(measurements.every((measurement) => isReportedUid(measurement.uid))).toBe(true);
    expect(isReportedUid('4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11')).toBe(false);
    expect(measurements.map(measurementText)).toEqual(['Length 12.5 mm', 'Probe']);
  });

  it('gives a series the measurements drawn on its frames, from every report', async () => {
    const reports = await fetched(BODY);
    expect(measurementsOfSeries(reports, SERIES).map((measurement) => measurement.uid)).toEqual([
      'report:2.25.2:1',
      'report:2.25.4:1',
    ]);
    expect(measurementsOfSeries(reports, OTHER_SERIES).map((measurement) => measurement.kind)).toEqual([
      'probe',
    ]);
    expect(measurementsOfSeries(reports, '1.2.3')).toEqual([]);
  });

  it('refuses an answer that is not what the server promises', async () => {
    const [report] = BODY.reports;
    const wrongPoints = { ...report, annotations: [{ ...report!.annotations[0], kind: 'probe' }] };
    await expect(fetched({ reports: [wrongPoints] })).rejects.toThrow();
    const badFrame = {
      ...report,
      annotations: [{ ...report!.annotations[0], frame: { ...frame(SERIES, 'x'), frame: 0 } }],
    };
    await expect(fetched({ reports: [badFrame] })).rejects.toThrow();
    await expect(fetched({ reports: [{ ...report, content_date: 'May 2' }] })).rejects.toThrow();
    await expect(fetched({})).rejects.toThrow();
  });
});
