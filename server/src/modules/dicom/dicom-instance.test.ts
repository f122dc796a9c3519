import { randomBytes } from 'node:crypto';
import { STUDY_MESSAGES } from '@ra/shared';
import { describe, expect, it } from 'vitest';
import { readDicomSample } from '../../../test/dicom-samples.js';
import { readDicomInstance } from './dicom-instance.js';
import { DicomReadError } from './dicom-read-error.js';

function readError(bytes: Uint8Array): DicomReadError {
  try {
    readDicomInstance(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(DicomReadError);
    return error as DicomReadError;
  }
  throw new Error('The file was read.');
}

/** Every tag in a DICOM JSON dataset, nested ones included. */
function allTags(json: object): string[] {
  return Object.entries(json).flatMap(([tag, element]: [string, { Value?: unknown[] }]) => [
    tag,
    ...(element.Value ?? []).flatMap((value) =>
      typeof value === 'object' && value !== null && !('Alphabetic' in value) ? allTags(value) : [],
    ),
  ]);
}

describe('readDicomInstance', () => {
  // Expected values as dcmdump (DCMTK) prints them for the same files.
  it('reads the metadata of CT_small.dcm', () => {
    const instance = readDicomInstance(readDicomSample('CT_small.dcm'));
    expect(instance).toMatchObject({
      sopInstanceUid: '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322',
      sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
      studyInstanceUid: '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322',
      seriesInstanceUid: '1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322',
      transferSyntaxUid: '1.2.840.10008.1.2.1',
      patientName: 'CompressedSamples^CT1',
      patientId: '1CT1',
      patientBirthDate: null,
      patientSex: 'O',
      studyDate: '2004-01-19',
      studyTime: '072730',
      studyDescription: 'e+1',
      accessionNumber: '',
      studyId: '1CT1',
      referringPhysicianName: '',
      modality: 'CT',
      seriesNumber: 1,
      instanceNumber: 1,
      rows: 128,
      columns: 128,
      numberOfFrames: 1,
      bitsAllocated: 16,
      samplesPerPixel: 1,
      photometricInterpretation: 'MONOCHROME2',
      isImage: true,
      isDicomdir: false,
      sopClassName: 'CT Image',
    });
  });

  it('reads the metadata of MR_small.dcm', () => {
    const instance = readDicomInstance(readDicomSample('MR_small.dcm'));
    expect(instance).toMatchObject({
      sopInstanceUid: '1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457',
      sopClassUid: '1.2.840.10008.5.1.4.1.1.4',
      studyInstanceUid: '1.3.6.1.4.1.5962.1.2.4.20040826185059.5457',
      seriesInstanceUid: '1.3.6.1.4.1.5962.1.3.4.1.20040826185059.5457',
      patientName: 'CompressedSamples^MR1',
      patientId: '4MR1',
      patientSex: 'F',
      studyDate: '2004-08-26',
      studyTime: '185059',
      modality: 'MR',
      rows: 64,
      columns: 64,
      isImage: true,
      sopClassName: 'MR Image',
    });
  });

  it('reads the same metadata whatever the transfer syntax', () => {
    const reference = readDicomInstance(readDicomSample('MR_small.dcm'));
    const syntaxes = {
      'MR_small_bigendian.dcm': '1.2.840.10008.1.2.2',
      'MR_small_RLE.dcm': '1.2.840.10008.1.2.5',
      'MR_small_jp2klossless.dcm': '1.2.840.10008.1.2.4.90',
      'MR_small_jpeg_ls_lossless.dcm': '1.2.840.10008.1.2.4.80',
    };
    for (const [name, transferSyntaxUid] of Object.entries(syntaxes)) {
      expect(readDicomInstance(readDicomSample(name)), name).toEqual({
        ...reference,
        transferSyntaxUid,
        nativeFrames: null,
        // Where the one frame's fragments lie (frame-offsets.ts).
        frameOffsets: transferSyntaxUid === '1.2.840.10008.1.2.2' ? null : expect.any(Array),
      });
    }
    // Implicit VR cannot tell SS from US: (0028,0106) and (0028,0107) come out US, all else is the same.
    const implicit = readDicomInstance(readDicomSample('MR_small_implicit.dcm'));
    expect(implicit.metadata['00280107']).toEqual({ vr: 'US', Value: [4000] });
    expect({ ...implicit.metadata, '00280106': null, '00280107': null }).toEqual({
      ...reference.metadata,
      '00280106': null,
      '00280107': null,
    });
  });

  it('converts a birth date, trims the carets of an empty name and reads a waveform as no image', () => {
    expect(readDicomInstance(readDicomSample('waveform_ecg.dcm'))).toMatchObject({
      patientBirthDate: '1971-01-23',
      accessionNumber: '03028041970546',
      referringPhysicianName: '2721',
      isImage: false,
      sopClassName: 'Waveform',
    });
    // dcmdump: (0008,0090) PN [^^^^]
    expect(readDicomInstance(readDicomSample('image_dfl.dcm')).referringPhysicianName).toBe('');
  });

  it('reads a deflated dataset', () => {
    expect(readDicomInstance(readDicomSample('image_dfl.dcm'))).toMatchObject({
      transferSyntaxUid: '1.2.840.10008.1.2.1.99',
      rows: 512,
      columns: 512,
      isImage: true,
    });
  });

  it('reads multi-frame and segmentation images', () => {
    expect(readDicomInstance(readDicomSample('rtdose.dcm'))).toMatchObject({
      numberOfFrames: 15,
      bitsAllocated: 32,
      isImage: true,
      sopClassName: 'RT Dose',
    });
    expect(readDicomInstance(readDicomSample('liver_1frame.dcm'))).toMatchObject({
      bitsAllocated: 1,
      seriesDescription: 'Liver Segmentation',
      sopClassName: 'Segmentation',
    });
    expect(readDicomInstance(readDicomSample('J2K_pixelrep_mismatch.dcm')).bodyPartExamined).toBe('HEAD');
  });

  it('reads structured reports and RT plans as objects that are not images', () => {
    for (const name of ['test-SR.dcm', 'reportsi.dcm']) {
      expect(readDicomInstance(readDicomSample(name)), name).toMatchObject({
        isImage: false,
        sopClassName: 'Structured Report',
        rows: null,
        columns: null,
      });
    }
    expect(readDicomInstance(readDicomSample('rtplan.dcm'))).toMatchObject({
      isImage: false,
      sopClassName: 'RT Plan',
    });
  });

  it('reads a DICOMDIR, which names no study', () => {
    expect(readDicomInstance(readDicomSample('dicomdirtests/DICOMDIR'))).toMatchObject({
      isDicomdir: true,
      isImage: false,
      sopClassUid: '1.2.840.10008.1.3.10',
      studyInstanceUid: '',
    });
  });

  it('refuses a file without the DICM preamble as not DICOM', () => {
    for (const name of ['no_meta.dcm', 'ExplVR_LitEndNoMeta.dcm', 'rtstruct.dcm']) {
      expect(readError(readDicomSample(name)).reason, name).toBe(STUDY_MESSAGES.notDicom);
    }
    expect(readError(randomBytes(4096)).reason).toBe(STUDY_MESSAGES.notDicom);
    expect(readError(Buffer.from('DICM')).reason).toBe(STUDY_MESSAGES.notDicom);
    expect(readError(new Uint8Array(0)).reason).toBe(STUDY_MESSAGES.notDicom);
  });

  it('refuses a truncated or damaged DICOM file as unreadable', () => {
    // MR_truncated ends inside its Pixel Data; rtplan_truncated inside a sequence.
    for (const name of [
      'MR_truncated.dcm',
      'rtplan_truncated.dcm',
      'meta_missing_tsyntax.dcm',
      'SC_rgb_jpeg.dcm',
    ]) {
      expect(readError(readDicomSample(name)).reason, name).toBe(STUDY_MESSAGES.unreadable);
    }
    const header = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM')]);
    expect(readError(Buffer.concat([header, randomBytes(2000)])).reason).toBe(STUDY_MESSAGES.unreadable);
  });

  it('refuses a file that names no study, series or instance as unreadable', () => {
    // Both hold a few elements and no UIDs (dcmdump shows none in their datasets).
    for (const name of ['priv_SQ.dcm', 'empty_charset_LEI.dcm']) {
      expect(readError(readDicomSample(name)).reason, name).toBe(STUDY_MESSAGES.unreadable);
    }
  });
});

describe('the metadata JSON', () => {
  it('holds neither the file meta group nor bulk data, and is plain JSON', () => {
    for (const name of [
      'CT_small.dcm',
      'MR_small_bigendian.dcm',
      'rtdose.dcm',
      'test-SR.dcm',
      'waveform_ecg.dcm',
    ]) {
      const { metadata } = readDicomInstance(readDicomSample(name));
      const tags = allTags(metadata);
      expect(
        tags.filter((tag) => tag.startsWith('0002')),
        name,
      ).toEqual([]);
      expect(tags, name).not.toContain('7FE00010');
      expect(JSON.parse(JSON.stringify(metadata)), name).toEqual(metadata);
    }
  });

  it('refers to binary values over 1 KiB by BulkDataURI and keeps smaller ones inline', () => {
    const { metadata, studyInstanceUid, seriesInstanceUid, sopInstanceUid } = readDicomInstance(
      readDicomSample('waveform_ecg.dcm'),
    );
    // dcmdump: the Waveform Sequence's first (5400,1010) WaveformData is OW of 240 000 bytes.
    const waveform = metadata['54000100']!.Value![0] as Record<string, unknown>;
    expect(waveform['54001010']).toEqual({
      vr: 'OW',
      BulkDataURI: `/dicomweb/studies/${studyInstanceUid}/series/${seriesInstanceUid}/instances/${sopInstanceUid}/bulkdata/54000100/1/54001010`,
    });
    expect(waveform['003A0005']).toEqual({ vr: 'US', Value: [12] });
    // dcmdump: (1455,1009) OB 00\00\01\00\00\00\43\0a\65\6c\32\35\30\00, 14 bytes.
    expect(metadata['14551009']).toEqual({
      vr: 'OB',
      InlineBinary: Buffer.from([0, 0, 1, 0, 0, 0, 0x43, 0x0a, 0x65, 0x6c, 0x32, 0x35, 0x30, 0]).toString(
        'base64',
      ),
    });
  });

  it('writes values as DICOM JSON: person names, numbers, tags, sequences and empty values', () => {
    const { metadata } = readDicomInstance(readDicomSample('CT_small.dcm'));
    expect(metadata['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'CompressedSamples^CT1' }] });
    expect(metadata['00080090']).toEqual({ vr: 'PN' });
    expect(metadata['00080050']).toEqual({ vr: 'SH' });
    expect(metadata['00180050']).toEqual({ vr: 'DS', Value: [5] });
    expect(metadata['00080008']).toEqual({ vr: 'CS', Value: ['ORIGINAL', 'PRIMARY', 'AXIAL'] });
    // (0010,1002) OtherPatientIDsSequence, two items.
    expect(metadata['00101002']).toEqual({
      vr: 'SQ',
      Value: [
        { '00100020': { vr: 'LO', Value: ['ABCD1234'] }, '00100022': { vr: 'CS', Value: ['TEXT'] } },
        { '00100020': { vr: 'LO', Value: ['1234ABCD'] }, '00100022': { vr: 'CS', Value: ['TEXT'] } },
      ],
    });
    // rtdose.dcm: (0028,0009) AT (3004,000c) FrameIncrementPointer.
    expect(readDicomInstance(readDicomSample('rtdose.dcm')).metadata['00280009']).toEqual({
      vr: 'AT',
      Value: ['3004000C'],
    });
  });

  it('keeps a sequence written as UN as opaque bytes, without letting dcmjs misread it', () => {
    // gdcmconv wrote rtdose_rle_1frame.dcm's elements as UN; (300C,0002) is a sequence whose items are
    // implicit VR. Read as explicit VR, its bytes claim a 775 MB value.
    const before = process.memoryUsage().arrayBuffers;
    const { metadata, studyInstanceUid } = readDicomInstance(readDicomSample('rtdose_rle_1frame.dcm'));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    expect(studyInstanceUid).toBe('1.2.999.999.99.9.9999.8888');
    expect(metadata['300C0002']).toMatchObject({ vr: 'UN' });
    expect(Buffer.from(metadata['300C0002']!.InlineBinary!, 'base64')).toHaveLength(148);
  });
});

describe('nativeFrames', () => {
  /** The frames' offset, checked against the Pixel Data element header (tag, VR, length) before it. */
  function expectPixelDataAt(file: Buffer, offset: number, length: number, vr: 'OW' | 'OB' | null) {
    expect(file.subarray(offset - (vr ? 12 : 8), offset - (vr ? 8 : 4)).toString('hex')).toBe('e07f1000');
    expect(file.readUInt32LE(offset - 4)).toBe(length);
  }

  it('gives where each uncompressed little-endian frame lies in the file', () => {
    // MR_small: one 64 × 64 frame of 16 bits (some padding follows it).
    const mr = readDicomSample('MR_small.dcm');
    const frames = readDicomInstance(mr).nativeFrames!;
    expect(frames.frameBytes).toBe(64 * 64 * 2);
    expectPixelDataAt(mr, frames.offset, 8192, 'OW');
    const implicit = readDicomSample('MR_small_implicit.dcm');
    const implicitFrames = readDicomInstance(implicit).nativeFrames!;
    expect(implicitFrames.frameBytes).toBe(8192);
    expectPixelDataAt(implicit, implicitFrames.offset, 8192, null);
    // rtdose: fifteen 10 × 10 frames of 32 bits, one after the other.
    const dose = readDicomSample('rtdose.dcm');
    const doseFrames = readDicomInstance(dose).nativeFrames!;
    expect(doseFrames.frameBytes).toBe(10 * 10 * 4);
    expectPixelDataAt(dose, doseFrames.offset, 15 * 400, null);
  });

  it('is null where frames cannot be sent as they lie: compressed, big endian, deflated, YBR_FULL_422', () => {
    for (const sample of [
      'MR_small_RLE.dcm',
      'MR_small_jp2klossless.dcm',
      'MR_small_bigendian.dcm',
      'image_dfl.dcm',
      'SC_ybr_full_422_uncompressed.dcm',
    ]) {
      expect(readDicomInstance(readDicomSample(sample)).nativeFrames, sample).toBeNull();
    }
  });
});
