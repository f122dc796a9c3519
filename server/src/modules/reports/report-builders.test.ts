import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import dcmjs, { type DcmjsDataset } from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMeasurementReport, ENHANCED_SR } from './sr-builder.js';
import { buildKeyObjectSelection, KEY_OBJECT_SELECTION } from './kos-builder.js';
import type { DocumentContext, StudyInstance } from './report-document.js';
import { uidFromUuid } from './dicom-dataset.js';

/*
 * The report builders on fixtures: what they write parses back with dcmjs with the values asked
 * for, and dcmtk reads it (dcmdump) and finds the SR structure valid (dsrdump).
 */

const run = promisify(execFile);
const CT = '1.2.840.10008.5.1.4.1.1.2';
const MR_ENHANCED = '1.2.840.10008.5.1.4.1.1.4.1';
const STUDY = '1.2.826.0.1.3680043.8.498.1';
const SERIES = '1.2.826.0.1.3680043.8.498.2';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-reports-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

type Natural = Record<string, unknown> & { ContentSequence?: Natural[] };

function instance(sop: string, options: Partial<StudyInstance> = {}): StudyInstance {
  return {
    seriesInstanceUid: SERIES,
    sopInstanceUid: sop,
    sopClassUid: CT,
    numberOfFrames: 1,
    metadata: { '00280030': { vr: 'DS', Value: [0.5, 0.25] } },
    ...options,
  };
}

function context(instances: StudyInstance[]): DocumentContext {
  return {
    studyInstanceUid: STUDY,
    studyAttributes: {
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
      '00100020': { vr: 'LO', Value: ['PID-7'] },
      '00100030': { vr: 'DA', Value: ['19800102'] },
      '00080050': { vr: 'SH', Value: ['ACC-1'] },
      '00081030': { vr: 'LO', Value: ['CT chest'] },
    },
    instances: new Map(instances.map((entry) => [entry.sopInstanceUid, entry])),
    observerName: 'Diologist^Ray',
    seriesInstanceUid: '2.25.1234',
    sopInstanceUid: '2.25.5678',
    seriesNumber: 9901,
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
  };
}

function parse(file: Buffer): { meta: Natural; dataset: Natural } {
  const { meta, dict } = dcmjs.data.DicomMessage.readFile(
    file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
  );
  const naturalize = (dataset: unknown) =>
    dcmjs.data.DicomMetaDictionary.naturalizeDataset(dataset as DcmjsDataset) as Natural;
  // Without dcmjs' bookkeeping of VRs, so items compare by their attributes alone.
  const plain = (dataset: Natural) =>
    JSON.parse(
      JSON.stringify(dataset, (key, value: unknown) => (key === '_vrMap' ? undefined : value)),
    ) as Natural;
  return { meta: plain(naturalize(meta)), dataset: plain(naturalize(dict)) };
}

function meaningOf(item: Natural): string | undefined {
  const concept = item.ConceptNameCodeSequence as Natural | Natural[] | undefined;
  return (Array.isArray(concept) ? concept[0] : concept)?.CodeMeaning as string | undefined;
}

/** Every content item under `item`, depth first. */
function contentItems(item: Natural): Natural[] {
  const children = item.ContentSequence ?? [];
  return children.flatMap((child) => [child, ...contentItems(child)]);
}

/** The one item of a sequence (dcmjs gives a sequence of one item as the item or a list). */
function only(value: unknown): Natural {
  return (Array.isArray(value) ? value[0] : value) as Natural;
}

/**
 * dcmtk's dcmdump and dsrdump on the file: both must read it without an error or a warning, but
 * for two notes of what dcmtk does not check: its VR checker does not cover UTF-8 (ISO_IR 192, the
 * character set written), and it checks the constraints of some templates (TID 1500) and not of
 * others (TID 2010).
 */
async function expectDcmtkReads(file: Buffer, name: string) {
  const target = path.join(dir, name);
  await fs.writeFile(target, file);
  const dumped = await run('dcmdump', ['--log-level', 'warn', target]);
  const problems = (stderr: string) =>
    stderr
      .split('\n')
      .filter(
        (line) =>
          line !== '' &&
          !line.includes('does not support this Specific Character Set: ISO_IR 192') &&
          line !== 'W: Check for template constraints not yet supported',
      );
  expect(problems(dumped.stderr)).toEqual([]);
  const structure = await run('dsrdump', ['--log-level', 'warn', target]);
  expect(problems(structure.stderr)).toEqual([]);
  return structure.stdout;
}

const LENGTH_UUID = '6f1c2a9e-4b7d-4c11-9a35-2f8e5b0c7d41';

describe('the measurement report (TID 1500, Enhanced SR)', () => {
  const first = instance('1.2.826.0.1.3680043.8.498.10');
  const noSpacing = instance('1.2.826.0.1.3680043.8.498.11', { metadata: {} });
  const multiframe = instance('1.2.826.0.1.3680043.8.498.12', {
    sopClassUid: MR_ENHANCED,
    numberOfFrames: 5,
    metadata: {
      '52009229': {
        vr: 'SQ',
        Value: [{ '00289110': { vr: 'SQ', Value: [{ '00280030': { vr: 'DS', Value: [2, 2] } }] } }],
      },
    },
  });
  const report = buildMeasurementReport({
    context: context([first, noSpacing, multiframe]),
    note: 'Nodule in the right lower lobe, 11 mm.\nFollow up in 3 months.',
    annotations: [
      // 40 columns × 0.25 mm and 30 rows × 0.5 mm: 10 mm by 15 mm, so √(100 + 225) mm.
      {
        uid: LENGTH_UUID,
        kind: 'length',
        sopInstanceUid: first.sopInstanceUid,
        frame: 1,
        points: [
          [10, 20],
          [50, 50],
        ],
        label: 'nodule',
      },
      // No Pixel Spacing: 3-4-5 pixels.
      {
        uid: crypto.randomUUID(),
        kind: 'length',
        sopInstanceUid: noSpacing.sopInstanceUid,
        frame: 1,
        points: [
          [0, 0],
          [3, 4],
        ],
        label: '',
      },
      // An ellipse of 10 × 4 pixels on frame 3 of 2 mm pixels: π × 10 mm × 4 mm.
      {
        uid: crypto.randomUUID(),
        kind: 'ellipse',
        sopInstanceUid: multiframe.sopInstanceUid,
        frame: 3,
        points: [
          [0, 0],
          [10, 4],
        ],
        label: 'cyst',
      },
      {
        uid: crypto.randomUUID(),
        kind: 'arrow',
        sopInstanceUid: first.sopInstanceUid,
        frame: 1,
        points: [
          [1, 1],
          [5, 5],
        ],
        label: 'look here',
      },
      // An instance not of the study is left out.
      {
        uid: crypto.randomUUID(),
        kind: 'probe',
        sopInstanceUid: '1.2.3.999',
        frame: 1,
        points: [[1, 1]],
        label: '',
      },
    ],
  });
  const { meta, dataset } = parse(report);
  const items = contentItems(dataset);
  const groups = items.filter((item) => meaningOf(item) === 'Measurement Group');
  const numbers = items.filter((item) => item.ValueType === 'NUM');
  const valueOf = (num: Natural) => {
    const measured = only(num.MeasuredValueSequence);
    return {
      value: Number(measured.NumericValue),
      unit: only(measured.MeasurementUnitsCodeSequence).CodeValue,
    };
  };
  const imageOf = (item: Natural) => {
    const scoord = only(item.ContentSequence);
    const image = only(scoord.ContentSequence);
    return { scoord, reference: only(image.ReferencedSOPSequence) };
  };

  it('is an Enhanced SR of the study, series SR, made by the archive, from the TID 1500 template', () => {
    expect(meta.MediaStorageSOPClassUID).toBe(ENHANCED_SR);
    expect(dataset.SOPClassUID).toBe(ENHANCED_SR);
    expect(dataset.SOPInstanceUID).toBe('2.25.5678');
    expect(dataset.Modality).toBe('SR');
    expect(dataset.Manufacturer).toBe('Radiology Archive');
    expect(dataset.StudyInstanceUID).toBe(STUDY);
    expect(dataset.SeriesInstanceUID).toBe('2.25.1234');
    expect(dataset.PatientID).toBe('PID-7');
    expect(only(dataset.PatientName)).toEqual({ Alphabetic: 'Doe^Jane' });
    expect(dataset.AccessionNumber).toBe('ACC-1');
    expect(dataset.ValueType).toBe('CONTAINER');
    expect(meaningOf(dataset)).toBe('Imaging Measurement Report');
    expect(only(dataset.ContentTemplateSequence)).toMatchObject({
      MappingResource: 'DCMR',
      TemplateIdentifier: '1500',
    });
  });

  it('gives each length in mm from the Pixel Spacing, or in pixels without one, and areas in mm²', () => {
    expect(groups).toHaveLength(4);
    expect(numbers.map(valueOf)).toEqual([
      { value: expect.closeTo(Math.sqrt(325), 6), unit: 'mm' },
      { value: 5, unit: '{pixels}' },
      { value: expect.closeTo(Math.PI * 40, 6), unit: 'mm2' },
    ]);
    expect(numbers.map((num) => meaningOf(num))).toEqual(['Length', 'Length', 'Area']);
  });

  it('names, for each measurement, the region drawn and the instance (and frame of a multi-frame one)', () => {
    const [length, , ellipse] = numbers.map(imageOf);
    expect(length!.scoord).toMatchObject({
      ValueType: 'SCOORD',
      RelationshipType: 'INFERRED FROM',
      GraphicType: 'POLYLINE',
    });
    // dcmjs names (0070,0022) and (0070,0023) by their keywords of Graphic Annotations.
    expect(length!.scoord.GraphicData).toEqual([10, 20, 50, 50]);
    expect(length!.reference).toEqual({
      ReferencedSOPClassUID: CT,
      ReferencedSOPInstanceUID: first.sopInstanceUid,
    });
    expect(ellipse!.scoord).toMatchObject({ GraphicType: 'ELLIPSE', GraphicData: [0, 2, 10, 2, 5, 0, 5, 4] });
    expect(ellipse!.reference).toEqual({
      ReferencedSOPClassUID: MR_ENHANCED,
      ReferencedSOPInstanceUID: multiframe.sopInstanceUid,
      ReferencedFrameNumber: 3,
    });
    const tracking = contentItems(groups[0]!).find(
      (item) => meaningOf(item) === 'Tracking Unique Identifier',
    );
    expect(tracking?.UID).toBe(uidFromUuid(LENGTH_UUID));
    const arrow = contentItems(groups[3]!).find((item) => meaningOf(item) === 'Finding');
    expect(arrow?.TextValue).toBe('look here');
    const evidence = only(dataset.CurrentRequestedProcedureEvidenceSequence);
    const sops = (evidence.ReferencedSeriesSequence as Natural[]).flatMap((series) =>
      (series.ReferencedSOPSequence as Natural[]).map((sop) => sop.ReferencedSOPInstanceUID),
    );
    expect(sops.sort()).toEqual(
      [first.sopInstanceUid, noSpacing.sopInstanceUid, multiframe.sopInstanceUid].sort(),
    );
  });

  it('carries the note as its impression', () => {
    const impression = items.find((item) => meaningOf(item) === 'Impression');
    expect(impression).toMatchObject({
      ValueType: 'TEXT',
      TextValue: 'Nodule in the right lower lobe, 11 mm.\nFollow up in 3 months.',
    });
  });

  it('is read by dcmdump and found valid by dsrdump', async () => {
    const dump = await expectDcmtkReads(report, 'sr.dcm');
    expect(dump).toContain('Enhanced SR');
    expect(dump).toContain('Imaging Measurement Report');
  });

  it('without annotations, is the note alone, still valid', async () => {
    const bare = buildMeasurementReport({
      context: context([first]),
      note: 'Normal study.',
      annotations: [],
    });
    const parsed = parse(bare).dataset;
    expect(contentItems(parsed).filter((item) => item.ValueType === 'NUM')).toHaveLength(0);
    expect(parsed.CurrentRequestedProcedureEvidenceSequence).toBeUndefined();
    await expectDcmtkReads(bare, 'bare.dcm');
  });
});

describe('the key object selection (TID 2010)', () => {
  const first = instance('1.2.826.0.1.3680043.8.498.20');
  const multiframe = instance('1.2.826.0.1.3680043.8.498.21', {
    sopClassUid: MR_ENHANCED,
    numberOfFrames: 4,
  });

  it('lists each key image with its instance and, of a multi-frame one, its frame', async () => {
    const file = buildKeyObjectSelection({
      context: context([first, multiframe]),
      description: 'Key images of Ray Diologist',
      keyImages: [
        { sopInstanceUid: multiframe.sopInstanceUid, frame: 2 },
        { sopInstanceUid: first.sopInstanceUid, frame: 1 },
        { sopInstanceUid: '1.2.3.999', frame: 1 },
      ],
    })!;
    const { dataset } = parse(file);
    expect(dataset.SOPClassUID).toBe(KEY_OBJECT_SELECTION);
    expect(dataset.Modality).toBe('KO');
    expect(meaningOf(dataset)).toBe('Of Interest');
    const images = contentItems(dataset).filter((item) => item.ValueType === 'IMAGE');
    expect(images.map((image) => only(image.ReferencedSOPSequence))).toEqual([
      {
        ReferencedSOPClassUID: MR_ENHANCED,
        ReferencedSOPInstanceUID: multiframe.sopInstanceUid,
        ReferencedFrameNumber: 2,
      },
      { ReferencedSOPClassUID: CT, ReferencedSOPInstanceUID: first.sopInstanceUid },
    ]);
    const dump = await expectDcmtkReads(file, 'ko.dcm');
    expect(dump).toContain('Key Object Selection');
  });

  it('is not made without a key image of the study', () => {
    const none = buildKeyObjectSelection({
      context: context([first]),
      description: 'x',
      keyImages: [{ sopInstanceUid: '1.2.3.999', frame: 1 }],
    });
    expect(none).toBeUndefined();
  });
});
