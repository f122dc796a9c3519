// The module map of docs/architecture.md as rules: `npm run lint` fails when an import breaks one.
// Each rule says what it protects; docs/architecture.md §14 explains the map they come from.

/**
 * Tables, by the schema file that declares them: the modules that write them (owners) and those
 * that only read them in their own queries (readers, each with why). Any other code asks an
 * owner's public entry. docs/architecture.md §6 is the same map in words.
 */
const TABLES = {
  'annotations.ts': { owners: ['annotations'] },
  'audit.ts': { owners: ['audit'] },
  'care.ts': {
    // identity links an invited patient to their physician as the account is made.
    owners: ['patients', 'identity'],
    readers: { access: 'who may read a patient' },
  },
  'hospitals.ts': { owners: ['hospitals'] },
  'roster.ts': { owners: ['hospitals', 'identity'] },
  'identity.ts': { owners: ['identity'], paths: ['^server/src/lib/server-secrets\\.ts$'] },
  'archive-items.ts': {
    // studies writes the archive item of each study it files.
    owners: ['archive-items', 'studies'],
    readers: {
      access: 'who may read an item',
      annotations: "an annotation's item",
      dicomweb: 'the archive items behind DICOMweb answers',
      downloads: 'the items and stored files a download ZIP holds',
      uploads: 'the storage quota counts the bytes each user stored',
    },
  },
  'incoming.ts': { owners: ['incoming'] },
  'shares.ts': {
    owners: ['shares'],
    readers: { audit: 'share links named as the actors of access history' },
  },
  'dicom-nodes.ts': { owners: ['dicom-node'] },
  'uploads.ts': { owners: ['uploads'] },
  'notifications.ts': { owners: ['notifications'] },
  'payments.ts': { owners: ['payments', 'ratings'], readers: { access: 'paid invoices grant reads' } },
  'studies.ts': {
    owners: ['studies'],
    readers: {
      'archive-items': "a study's summary in item lists, and key images naming its frames",
      dicomweb: 'QIDO-RS and WADO-RS answer from the filed studies, series and instances',
      downloads: "a download's stored DICOM files and the DICOMDIR's records",
    },
  },
  'users.ts': {
    // identity makes accounts, users edits profiles, notifications bumps each user's list version.
    owners: ['identity', 'users', 'notifications'],
    readers: {
      access: 'roles and links behind every decision',
      annotations: "authors' names",
      audit: "actors' names in access history",
      downloads: "the patient's name and birth date in a download's index.html",
      'archive-items': "patients' and uploaders' names in item lists",
      patients: "patients' names and birth dates",
      payments: "radiologists' fees and names on invoices",
      ratings: 'whether a radiologist accepts ratings',
      studies: "the patient's name and birth date for the wrong-patient guard",
      shares: "the patient's name and birth date on an opened share link",
      'dicom-node': 'the physician a registered DICOM node files for',
    },
  },
};

const tableRules = Object.entries(TABLES).map(([file, { owners, readers = {}, paths = [] }]) => {
  const modules = [...owners, ...Object.keys(readers)];
  return {
    name: `table-owner-${file.replace(/\.ts$/, '')}`,
    comment: `db/schema/${file} is written by ${owners.join(', ')}${
      Object.keys(readers).length > 0 ? ` and read by ${Object.keys(readers).join(', ')}` : ''
    } (docs/architecture.md §6); others ask an owner's public entry.`,
    severity: 'error',
    from: {
      path: '^server/src/',
      pathNot: [
        ...modules.map((module) => `^server/src/modules/${module}/`),
        ...paths,
        '^server/src/db/',
        '\\.test\\.ts$',
      ],
    },
    to: { path: `^server/src/db/schema/${file.replace('.', '\\.')}$` },
  };
});

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports: no file of it can be understood or changed on its own.',
      severity: 'error',
      from: { path: '^(server|web|shared)/src/' },
      to: { circular: true },
    },
    {
      name: 'module-internals',
      comment:
        "Another module's files are reached only through its index.ts (its public entry); a module's own files import each other freely.",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^server/src/modules/[^/]+/',
        pathNot: ['^server/src/modules/$1/', '^server/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'outside-modules-use-entries',
      comment:
        "Jobs, plugins, the CLI, the seed and the app reach a module only through its index.ts. Two places are the app's own wiring: the route table registers each module's *.routes.ts, and context.ts takes types from the files that declare them.",
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: ['^server/src/modules/', '^server/src/(context|routes)\\.ts$', '\\.test\\.ts$'],
      },
      to: {
        path: '^server/src/modules/[^/]+/',
        pathNot: ['^server/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'route-table-registers-routes',
      comment: 'server/src/routes.ts reaches each module only for its *.routes.ts.',
      severity: 'error',
      from: { path: '^server/src/routes\\.ts$' },
      to: { path: '^server/src/modules/[^/]+/', pathNot: '\\.routes\\.ts$' },
    },
    {
      name: 'context-takes-types',
      comment:
        'The app context names the types of what it holds and nothing else, so that every module can depend on it.',
      severity: 'error',
      from: { path: '^server/src/context\\.ts$' },
      to: { path: '^server/src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-repository-in-entry',
      comment: "A module's repository is its own: its index.ts exposes services, never queries.",
      severity: 'error',
      from: { path: '^server/src/modules/[^/]+/index\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'schema-by-file',
      comment:
        'Tables are imported from the schema file that declares them, so that ownership can be checked.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: ['^server/src/db/', '\\.test\\.ts$'] },
      to: { path: '^server/src/db/schema/index\\.ts$' },
    },
    ...tableRules,
    {
      name: 'web-features-apart',
      comment:
        'A web feature never imports another feature; what two features share lives in web/src/components or web/src/lib.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web-components-below-features',
      comment: 'Shared web pieces (components, lib, the viewer) never import a feature.',
      severity: 'error',
      from: { path: '^web/src/(components|lib|viewer)/' },
      to: { path: '^web/src/features/' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ is used by the server and the web; it imports neither.',
      severity: 'error',
      from: { path: '^shared/src/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'server-and-web-apart',
      comment: 'The server and the web share code only through shared/.',
      severity: 'error',
      from: { path: '^(server|web)/src/' },
      to: { path: '^(web|server)/src/', pathNot: '^$1/src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
