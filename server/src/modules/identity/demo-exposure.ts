import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { RefusedDemoSignIns } from '../../context.js';
import type { Db } from '../../db/client.js';
import * as identityRepo from './identity.repository.js';
import { verifyPassword } from './password-hash.js';
import { DEMO_PASSWORD, DEMO_PATIENT, DEMO_PHYSICIAN, DEMO_RADIOLOGISTS } from '../../seed/demo-data.js';

/**
 * The demo accounts' password is published in the README and the start-up log, so such an account
 * must never be reachable from another machine.
 */

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether a HOST value only accepts connections from this machine (`localhost`, 127.x.y.z, ::1). */
export function isLoopbackHost(host: string): boolean {
  const address = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (address === 'localhost') {
    return true;
  }
  const family = net.isIP(address);
  // Anything else (0.0.0.0, ::, a LAN address, a host name) may be reachable from elsewhere.
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether to create the demo world at start: always with SEED_DEMO=1, never with SEED_DEMO=0, and
 * otherwise only on the first start of an empty embedded database that listens on loopback.
 */
export function shouldSeedDemo(options: {
  seedDemo: boolean | undefined;
  host: string;
  /** The embedded (PGlite) database has no hospitals and no users yet; false on PostgreSQL. */
  isEmbeddedDatabaseEmpty: boolean;
}): boolean {
  if (options.seedDemo !== undefined) {
    return options.seedDemo;
  }
  return isLoopbackHost(options.host) && options.isEmbeddedDatabaseEmpty;
}

export const DEMO_EMAILS = [
  ...new Set([...DEMO_RADIOLOGISTS.map((r) => r.email), DEMO_PHYSICIAN.email, DEMO_PATIENT.email]),
];

/**
 * On a server that listens beyond loopback, finds the demo accounts that still have the published
 * password, says why each is refused, and ends their sessions. Their sign-in is refused until the
 * password changes (a new hash) or the server listens on loopback again.
 */
export async function findExposedDemoAccounts(
  db: Db,
  host: string,
  log: FastifyBaseLogger,
): Promise<RefusedDemoSignIns> {
  const refused: RefusedDemoSignIns = new Map();
  if (isLoopbackHost(host)) {
    return refused;
  }
  for (const email of DEMO_EMAILS) {
    const user = await identityRepo.findUserByEmail(db, email);
    if (user?.passwordHash && (await verifyPassword(user.passwordHash, DEMO_PASSWORD))) {
      refused.set(user.id, user.passwordHash);
      await identityRepo.revokeUserSessions(db, user.id, new Date());
      log.warn(
        `demo account ${email} has the published demo password and the server listens on ${host}: ` +
          'its sign-in is refused; change its password or listen on 127.0.0.1',
      );
    }
  }
  return refused;
}

/** The sign-in check: true while the account still has the hash that verified the demo password. */
export function isDemoSignInRefused(
  refused: RefusedDemoSignIns,
  user: { id: string; passwordHash: string | null },
): boolean {
  return user.passwordHash !== null && refused.get(user.id) === user.passwordHash;
}
