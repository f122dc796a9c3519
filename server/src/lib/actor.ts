import type { Role } from '@ra/shared';

/**
 * The user a request acts for, as their session loaded them: the one shape of "who is asking" that
 * plugins/auth.ts sets on the request and every module receives.
 */
export interface Actor {
  id: string;
  email: string;
  role: Role;
  title: string;
  firstName: string;
  lastName: string;
  emailVerifiedAt: Date | null;
  totpEnabledAt: Date | null;
  /** Whether the owner has proved the address: unverified accounts see no patient data (access module). */
  emailVerified: boolean;
  /** The session the request came with. */
  sessionId: string;
}

/** What an access decision reads of the actor; a job acting for a known account gives just these. */
export type ActorFacts = Pick<Actor, 'id' | 'role' | 'emailVerified'>;

/** The account behind a live session with its last activity, as the session cache keeps it (idle timeout). */
export type SessionActor = Omit<Actor, 'sessionId'> & { lastUsedAt: Date };
