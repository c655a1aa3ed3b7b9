import type { Queryable } from '../db/database.ts';
import { ConflictError, InvalidInputError } from '../errors.ts';
import { hashPassword, passwordProblem } from './password.ts';
import { type DashboardUser, insertUser, normalizeEmail } from './user-store.ts';

/** Deliberately loose: one "@" with something on each side, no spaces. */
const emailPattern = /^[^\s@]+@[^\s@]+$/;

/** Creates a dashboard user after checking the email and password; a taken email is a conflict. */
export async function createUser(db: Queryable, email: string, password: string): Promise<DashboardUser> {
  const normalized = normalizeEmail(email);
  if (!emailPattern.test(normalized) || normalized.length > 320) {
    throw new InvalidInputError(`"${email}" is not an email address`);
  }
  const problem = passwordProblem(password);
  if (problem !== null) throw new InvalidInputError(problem);
  const user = await insertUser(db, { email: normalized, passwordHash: await hashPassword(password) });
  if (user === null) throw new ConflictError(`A user with the email ${normalized} already exists`);
  return user;
}
