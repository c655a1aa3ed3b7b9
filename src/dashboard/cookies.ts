/** Just enough cookie handling for the session and the sign-in form's CSRF token. */

export const sessionCookieName = 'quire_session';
export const signInCsrfCookieName = 'quire_sign_in_csrf';

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
  }
  return null;
}

/** `HttpOnly; SameSite=Lax; Path=/`, plus `Secure` when the service is reached over https. */
export function serializeCookie(
  name: string,
  value: string,
  options: { secure: boolean; maximumAgeSeconds?: number },
): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.maximumAgeSeconds !== undefined) parts.push(`Max-Age=${options.maximumAgeSeconds}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
