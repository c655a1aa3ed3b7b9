/**
 * Dashboard accounts as the dashboard uses them: signing in, and the sessions it gives, bound to
 * the pool. Pruning expired sessions and old sign-in failures is maintenance (src/maintenance/).
 */
import type pg from 'pg';
import type { DashboardSession } from './session.ts';
import { deleteSession, findSession, touchSession } from './session-store.ts';
import { createSignIn, type SignIn } from './sign-in.ts';
import { createSignInTokens, type SignInTokens } from './sign-in-token.ts';

export interface AccountService {
  signIn: SignIn;
  /** The sign-in form's CSRF tokens (issued and checked by this service, never adopted). */
  signInTokens: SignInTokens;
  findSession(token: string): Promise<DashboardSession | null>;
  /** Records that the session was used (it ends after a while unused). */
  touchSession(token: string): Promise<void>;
  deleteSession(token: string): Promise<void>;
}

/** `formKey`: the key of the sign-in form's tokens, the same in every process (derived from the secret key). */
export function createAccountService(pool: pg.Pool, formKey: Buffer): AccountService {
  return {
    signIn: createSignIn(pool),
    signInTokens: createSignInTokens(formKey),
    findSession: (token) => findSession(pool, token),
    touchSession: (token) => touchSession(pool, token),
    deleteSession: (token) => deleteSession(pool, token),
  };
}
