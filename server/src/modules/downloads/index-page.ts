import type { DownloadItem, DownloadManifest, DownloadNote } from '@ra/shared';

/*
 * index.html of a download: a page that reads without the archive, with no script, no outside
 * resource and every user-written text escaped (notes, names and study descriptions come from
 * people and from files).
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const ROLE_NAMES = { PATIENT: 'Patient', PHYSICIAN: 'Physician', RADIOLOGIST: 'Radiologist' } as const;

function noteHtml(note: DownloadNote): string {
  const heading = note.role === 'RADIOLOGIST' ? "Radiologist's analysis" : `${ROLE_NAMES[note.role]}'s note`;
  const keyImages = note.key_images.map(
    (keyImage) =>
      `<li>${escapeHtml(keyImage.file ?? keyImage.sop_instance_uid)}, frame ${keyImage.frame}` +
      (keyImage.series_number === null ? '' : `, series ${keyImage.series_number}`) +
      (keyImage.instance_number === null ? '' : `, image ${keyImage.instance_number}`) +
      ` (window ${keyImage.window.center}/${keyImage.window.width})</li>`,
  );
  return [
    `<section class="note"><h3>${escapeHtml(heading)}: ${escapeHtml(note.full_name)}</h3>`,
    `<p class="when">Written ${escapeHtml(note.updated_at.slice(0, 10))}</p>`,
    note.note ? `<p class="text">${escapeHtml(note.note)}</p>` : '<p class="text">(no text)</p>',
    note.recommendation ? `<p>Recommended radiologist: ${escapeHtml(note.recommendation)}</p>` : '',
    keyImages.length > 0 ? `<h4>Key images</h4><ul>${keyImages.join('')}</ul>` : '',
    '</section>',
  ].join('');
}

function itemHtml(item: DownloadItem, index: number): string {
  const study = item.study;
  const title = study
    ? `DICOM study${study.study_description ? `: ${study.study_description}` : ''}`
    : 'Image';
  const facts: [string, string][] = [
    ['Stored', item.created_at.slice(0, 10)],
    ['Kind', study ? 'DICOM study' : 'Raster image'],
    ['Uploaded by', item.uploaded_by],
  ];
  if (study) {
    facts.push(
      ['Study date', study.study_date ?? 'not given'],
      ['Modalities', study.modalities.join(', ')],
      ['Series / instances', `${study.series_count} / ${study.instance_count}`],
      ['Patient name in the files', study.patient_name_in_file],
    );
  }
  const files =
    item.files.length === 0
      ? '<p>No files.</p>'
      : item.kind === 'image'
        ? `<p><a href="${escapeHtml(item.files[0]!)}">${escapeHtml(item.files[0]!)}</a></p>`
        : `<p>${item.files.length} DICOM file(s) from <code>${escapeHtml(item.files[0]!)}</code>; open <code>DICOMDIR</code> in a DICOM viewer.</p>`;
  return [
    `<article><h2>${index + 1}. ${escapeHtml(title)}</h2><dl>`,
    ...facts.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`),
    '</dl>',
    files,
    item.notes.map(noteHtml).join(''),
    '</article>',
  ].join('');
}

export function indexPage(manifest: DownloadManifest): string {
  const patient = manifest.patient;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Should anything get past the escaping, the page may still run no script and load nothing.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self'">`,
    `<title>Radiology Archive: ${escapeHtml(patient.full_name)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}',
    'article{border-top:1px solid #ccc;padding:1rem 0}dt{font-weight:bold}dd{margin:0 0 .5rem 1rem}',
    '.text{white-space:pre-wrap}.note{background:#f5f5f5;padding:.5rem 1rem;margin:.5rem 0}</style>',
    '</head><body><main>',
    `<h1>${escapeHtml(patient.full_name)}</h1>`,
    patient.dob ? `<p>Date of birth: ${escapeHtml(patient.dob)}</p>` : '',
    `<p>${manifest.items.length} item(s). The same facts are in <code>archive.json</code>.</p>`,
    manifest.items.map(itemHtml).join(''),
    '</main></body></html>',
    '',
  ].join('\n');
}
