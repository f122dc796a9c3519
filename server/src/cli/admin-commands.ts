import { parseArgs } from 'node:util';
import { z } from 'zod';
import { dobField, emailField, LIMITS, nameField, newPasswordField, titleField } from '@ra/shared';
import type { Db } from '../db/client.js';
import { addHospital, addRosterPhysician, listHospitals } from '../modules/hospitals/hospitals.service.js';
import { createRadiologist } from '../modules/users/radiologist-accounts.service.js';

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
    password: newPasswordField,
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
} as const;

export const COMMANDS = ['list-hospitals', ...Object.keys(schemas)] as const;

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  list-hospitals
  add-hospital --name <name>
  add-roster-physician --hospital <name> --first <first name> --last <last name> --dob YYYY-MM-DD
  add-radiologist --email <email> --password <password> [--title Dr.] --first <first> --last <last>
                  --expertise <text> [--bio <text>] --years <n> --fee <dollars> [--dob YYYY-MM-DD]`;

function parseOptions<K extends keyof typeof schemas>(command: K, args: string[]) {
  const optionNames = Object.keys(schemas[command].shape);
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args,
      options: Object.fromEntries(optionNames.map((name) => [name, { type: 'string' as const }])),
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

/** Runs one admin command and returns the lines to print. Never prints a password. */
export async function runAdminCommand(db: Db, argv: string[]): Promise<string[]> {
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
      const user = await createRadiologist(db, {
        email: options.email,
        password: options.password,
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
    default:
      throw new UsageError(command ? `Unknown command "${command}".\n\n${USAGE}` : USAGE);
  }
}
