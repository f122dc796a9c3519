/** Short names of the SOP classes an archive meets most, for lists and for telling images from the rest. */
const SOP_CLASS_NAMES: Record<string, string> = {
  '1.2.840.10008.5.1.4.1.1.1': 'CR Image',
  '1.2.840.10008.5.1.4.1.1.1.1': 'DX Image',
  '1.2.840.10008.5.1.4.1.1.1.1.1': 'DX Image',
  '1.2.840.10008.5.1.4.1.1.1.2': 'Mammography Image',
  '1.2.840.10008.5.1.4.1.1.1.2.1': 'Mammography Image',
  '1.2.840.10008.5.1.4.1.1.1.3': 'Intra-oral X-Ray Image',
  '1.2.840.10008.5.1.4.1.1.1.3.1': 'Intra-oral X-Ray Image',
  '1.2.840.10008.5.1.4.1.1.2': 'CT Image',
  '1.2.840.10008.5.1.4.1.1.2.1': 'Enhanced CT Image',
  '1.2.840.10008.5.1.4.1.1.3.1': 'Ultrasound Multi-frame Image',
  '1.2.840.10008.5.1.4.1.1.4': 'MR Image',
  '1.2.840.10008.5.1.4.1.1.4.1': 'Enhanced MR Image',
  '1.2.840.10008.5.1.4.1.1.6.1': 'Ultrasound Image',
  '1.2.840.10008.5.1.4.1.1.7': 'Secondary Capture',
  '1.2.840.10008.5.1.4.1.1.7.1': 'Secondary Capture',
  '1.2.840.10008.5.1.4.1.1.7.2': 'Secondary Capture',
  '1.2.840.10008.5.1.4.1.1.7.3': 'Secondary Capture',
  '1.2.840.10008.5.1.4.1.1.7.4': 'Secondary Capture',
  '1.2.840.10008.5.1.4.1.1.9.1.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.1.2': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.1.3': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.2.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.3.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.4.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.5.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.9.6.1': 'Waveform',
  '1.2.840.10008.5.1.4.1.1.12.1': 'X-Ray Angiographic Image',
  '1.2.840.10008.5.1.4.1.1.12.2': 'X-Ray Fluoroscopy Image',
  '1.2.840.10008.5.1.4.1.1.20': 'Nuclear Medicine Image',
  '1.2.840.10008.5.1.4.1.1.66': 'Raw Data',
  '1.2.840.10008.5.1.4.1.1.66.4': 'Segmentation',
  '1.2.840.10008.5.1.4.1.1.77.1.4': 'VL Photographic Image',
  '1.2.840.10008.5.1.4.1.1.104.1': 'Encapsulated PDF',
  '1.2.840.10008.5.1.4.1.1.128': 'PET Image',
  '1.2.840.10008.5.1.4.1.1.130': 'Enhanced PET Image',
  '1.2.840.10008.5.1.4.1.1.481.1': 'RT Image',
  '1.2.840.10008.5.1.4.1.1.481.2': 'RT Dose',
  '1.2.840.10008.5.1.4.1.1.481.3': 'RT Structure Set',
  '1.2.840.10008.5.1.4.1.1.481.5': 'RT Plan',
  '1.2.840.10008.5.1.4.1.1.481.8': 'RT Ion Plan',
  '1.2.840.10008.1.3.10': 'Media Storage Directory',
};

/** Structured Report classes (Basic Text, Enhanced, Comprehensive, Key Object Selection, CAD, dose…) share one prefix. */
const STRUCTURED_REPORT_PREFIX = '1.2.840.10008.5.1.4.1.1.88.';

export function sopClassName(sopClassUid: string): string {
  if (sopClassUid.startsWith(STRUCTURED_REPORT_PREFIX)) {
    return 'Structured Report';
  }
  return SOP_CLASS_NAMES[sopClassUid] ?? 'DICOM object';
}
