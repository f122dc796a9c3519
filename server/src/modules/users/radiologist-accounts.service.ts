import type { Db } from '../../db/client.js';
import { RuleViolation } from '../../lib/errors.js';
import { dollarsToCents } from '../../lib/money.js';
import { hashPassword } from '../identity/index.js';
import { createAccount, findAccountByEmail } from '../identity/index.js';

export interface NewRadiologist {
  email: string;
  /** Null leaves the account without a usable password until a reset. */
  password: string | null;
  title: string;
  firstName: string;
  lastName: string;
  dob: string;
  expertise: string;
  bio: string;
  yearsOfExp: number;
  feeDollars: number;
}

/** Radiologists never sign up publicly; operators and the demo seed create them here. */
export async function createRadiologist(db: Db, input: NewRadiologist) {
  if (await findAccountByEmail(db, input.email)) {
    throw new RuleViolation(`An account with the email ${input.email} already exists.`);
  }
  const user = await createAccount(db, {
    email: input.email,
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    role: 'RADIOLOGIST',
    title: input.title,
    firstName: input.firstName,
    lastName: input.lastName,
    dob: input.dob,
    expertise: input.expertise,
    bio: input.bio,
    yearsOfExp: input.yearsOfExp,
    feeCents: dollarsToCents(input.feeDollars),
    // An operator vouches for the address of an account they add.
    emailVerifiedAt: new Date(),
  });
  if (!user) {
    throw new RuleViolation(`An account with the email ${input.email} already exists.`);
  }
  return user;
}
