/**
 * Dashboard accounts as the dashboard uses them: signing in, and the sessions it gives, bound to
 * the pool. Pruning expired sessions and old sign-in failures is maintenance (src/maintenance/).
 */
import type pg from 'pg';
import type { DashboardSession } from './session.ts';
import { deleteSession, findSession, touchSession } from './session-store.ts';
import { createSignIn, type SignIn } from './sign-in.ts';

export interface AccountService {
  signIn: SignIn;
  findSession(token: string): Promise<DashboardSession | null>;
  /** Records that the session was used (it ends after a while unused). */
  touchSession(token: string): Promise<void>;
  deleteSession(token: string): Promise<void>;
}

export function createAccountService(pool: pg.Pool): AccountService {
  return {
    signIn: createSignIn(pool),
    findSession: (token) => findSession(pool, token),
    touchSession: (token) => touchSession(pool, token),
    deleteSession: (token) => deleteSession(pool, token),
  };
}
