import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  aeTitleField,
  dobField,
  emailField,
  LIMITS,
  nameField,
  newPasswordField,
  titleField,
} from '@ra/shared';
import type { Db } from '../db/client.js';
import { addDicomNode, listDicomNodes, newNodeSchema, removeDicomNode } from '../modules/dicom-node/index.js';
import { findPatientForAuditTrail, listPatientAuditTrail } from '../modules/audit/index.js';
import { addHospital, addRosterPhysician, listHospitals } from '../modules/hospitals/index.js';
import { createRadiologist } from '../modules/users/index.js';
import { formatAuditTrailLine } from './audit-trail-format.js';
import { promptHidden, readFirstLine, type CommandIo } from './password-input.js';

/** A mistake in how the command was called; the message says how to call it right. */
export class UsageError extends Error {}

const text = (label: string, max: number = LIMITS.text) =>
  z
    .string({ error: `--${label} is required` })
    .trim()
    .max(max, { error: `--${label} is too long` });

const schemas = {
  'add-hospital': z.object({ name: nameField('--name').max(LIMITS.name) }),
  'add-roster-physician': z.object({
    hospital: text('hospital').min(1, { error: '--hospital is required' }),
    first: nameField('--first'),
    last: nameField('--last'),
    dob: dobField,
  }),
  'add-radiologist': z.object({
    email: emailField('--email must be a valid email address'),
    // Checked against the password rules once read (from --password, stdin or the prompt).
    password: z.string().optional(),
    'password-stdin': z.boolean().optional(),
    title: titleField.optional().default('Dr.'),
    first: nameField('--first'),
    last: nameField('--last'),
    dob: dobField.optional().default('1970-01-01'),
    expertise: text('expertise', LIMITS.name).min(1, { error: '--expertise is required' }),
    bio: text('bio').optional().default(''),
    years: z.coerce.number({ error: '--years must be a whole number' }).int().min(0).max(80),
    fee: z.coerce
      .number({ error: '--fee must be an amount in dollars' })
      .min(0, { error: '--fee must be an amount in dollars' })
      .max(100_000)
      .refine((fee) => Number.isInteger(fee * 100), { error: '--fee has at most 2 decimals' }),
  }),
  audit: z.object({
    patient: emailField('--patient must be a valid email address'),
    since: z
      .string()
      .trim()
      .refine(isCalendarDate, { error: '--since must be a date written YYYY-MM-DD' })
      .optional(),
  }),
  'add-dicom-node': newNodeSchema,
  'remove-dicom-node': z.object({ 'ae-title': aeTitleField('--ae-title') }),
} as const;

/** Options that take no value. */
const FLAGS = new Set(['password-stdin']);

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00.000Z`);
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
  );
}

export const COMMANDS = ['list-hospitals', 'list-dicom-nodes', ...Object.keys(schemas)] as const;

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  list-hospitals
  add-hospital --name <name>
  add-roster-physician --hospital <name> --first <first name> --last <last name> --dob YYYY-MM-DD
  add-radiologist --email <email> [--password-stdin] [--title Dr.] --first <first> --last <last>
                  --expertise <text> [--bio <text>] --years <n> --fee <dollars> [--dob YYYY-MM-DD]
      The password is read from the first line of standard input with --password-stdin, else asked
      for without echo on a terminal. (--password <password> still works, but other users of the
      machine can see it.)
  audit --patient <email> [--since YYYY-MM-DD]
      Who accessed that patient's records, oldest first, one line per access, tab-separated:
      time (ISO 8601, UTC), actor (name, role and email; "—" when unknown), action, record type,
      record id, IP.
  add-dicom-node --physician <email> --ae-title <AET> [--host <ip>] [--port <n>]
      Lets the DICOM device of that AE title send studies to the physician's Incoming list (from
      that IP address only, when --host is given); with --host and --port, the physician may also
      send studies to it.
  list-dicom-nodes
  remove-dicom-node --ae-title <AET>`;

function parseOptions<K extends keyof typeof schemas>(command: K, args: string[]) {
  const optionNames = Object.keys(schemas[command].shape);
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args,
      options: Object.fromEntries(
        optionNames.map((name) => [
          name,
          { type: FLAGS.has(name) ? ('boolean' as const) : ('string' as const) },
        ]),
      ),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${USAGE}`);
  }
  const parsed = schemas[command].safeParse(values);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  }
  return parsed.data as z.output<(typeof schemas)[K]>;
}

const PASSWORD_VISIBLE =
  'warning: --password is visible to other users of this machine; use --password-stdin';

/** The new radiologist's password: from --password, standard input or a prompt without echo. */
async function radiologistPassword(
  options: { password?: string; 'password-stdin'?: boolean },
  io: CommandIo,
): Promise<string> {
  let password: string | undefined;
  if (options.password !== undefined && options['password-stdin']) {
    throw new UsageError('Give the password with --password-stdin or --password, not both.');
  } else if (options.password !== undefined) {
    io.stderr.write(`${PASSWORD_VISIBLE}\n`);
    password = options.password;
  } else if (options['password-stdin']) {
    password = await readFirstLine(io.stdin);
  } else if (io.stdin.isTTY) {
    password = await promptHidden(io, 'Password: ');
    if (password === undefined) {
      throw new UsageError('No password was given.');
    }
    if ((await promptHidden(io, 'Repeat the password: ')) !== password) {
      throw new UsageError('The passwords do not match.');
    }
  } else {
    throw new UsageError(
      'Pipe the password into --password-stdin, or run the command on a terminal to type it.',
    );
  }
  const parsed = newPasswordField.safeParse(password);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  }
  return parsed.data;
}

/** Runs one admin command and returns the lines to print. Never prints a password. */
export async function runAdminCommand(
  db: Db,
  argv: string[],
  io: CommandIo = { stdin: process.stdin, stderr: process.stderr },
): Promise<string[]> {
  const [command, ...args] = argv;
  switch (command) {
    case 'list-hospitals': {
      const rows = await listHospitals(db);
      return rows.length === 0 ? ['No hospitals yet.'] : rows.map((row) => `${row.name}\t${row.uid}`);
    }
    case 'add-hospital': {
      const options = parseOptions(command, args);
      const hospital = await addHospital(db, options.name);
      return [`Added hospital "${hospital.name}" (${hospital.uid}).`];
    }
    case 'add-roster-physician': {
      const options = parseOptions(command, args);
      await addRosterPhysician(db, {
        hospitalName: options.hospital,
        firstName: options.first,
        lastName: options.last,
        dob: options.dob,
      });
      return [
        `Added ${options.first} ${options.last} (born ${options.dob}) to the roster of "${options.hospital}".`,
      ];
    }
    case 'add-radiologist': {
      const options = parseOptions(command, args);
      const password = await radiologistPassword(options, io);
      const user = await createRadiologist(db, {
        email: options.email,
        password,
        title: options.title,
        firstName: options.first,
        lastName: options.last,
        dob: options.dob,
        expertise: options.expertise,
        bio: options.bio,
        yearsOfExp: options.years,
        feeDollars: options.fee,
      });
      return [
        `Added radiologist ${[options.title, options.first, options.last].filter(Boolean).join(' ')} <${user.email}> (${user.id}).`,
      ];
    }
    case 'audit': {
      const options = parseOptions(command, args);
      const patient = await findPatientForAuditTrail(db, options.patient);
      if (!patient) {
        throw new UsageError(`No patient account has the email ${options.patient}.`);
      }
      const since = options.since ? new Date(`${options.since}T00:00:00.000Z`) : undefined;
      const rows = await listPatientAuditTrail(db, patient.id, since);
      const period = options.since ? ` since ${options.since}` : '';
      return rows.length === 0
        ? [`No access to the records of ${patient.email} is recorded${period}.`]
        : rows.map(formatAuditTrailLine);
    }
    case 'add-dicom-node': {
      const options = parseOptions(command, args);
      const node = await addDicomNode(db, options);
      const where = [node.host && `host ${node.host}`, node.port && `port ${node.port}`].filter(Boolean);
      return [
        `Added DICOM node "${node.aeTitle}" for ${options.physician}${where.length > 0 ? ` (${where.join(', ')})` : ''}.`,
      ];
    }
    case 'list-dicom-nodes': {
      const rows = await listDicomNodes(db);
      return rows.length === 0
        ? ['No DICOM nodes yet.']
        : rows.map((row) =>
            [
              row.aeTitle,
              row.physicianEmail,
              row.host ?? '-',
              row.port === null ? '-' : String(row.port),
            ].join('\t'),
          );
    }
    case 'remove-dicom-node': {
      const options = parseOptions(command, args);
      await removeDicomNode(db, options['ae-title']);
      return [`Removed DICOM node "${options['ae-title']}".`];
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".\n\n${USAGE}` : USAGE);
  }
}
