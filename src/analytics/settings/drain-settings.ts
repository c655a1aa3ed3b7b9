/**
 * A project's log drain settings, kept in `projects.settings` like its other settings (the
 * settings column is never shown to API clients or printed):
 *  - `analyticsVercelDrainSecret`: the Vercel drain's signature secret, sealed (src/secrets/); when
 *    set, every delivery must carry a matching `x-vercel-signature`;
 *  - `analyticsVercelVerifyCode`: the code Vercel shows when a drain is created, echoed in the
 *    `x-vercel-verify` response header so that Vercel accepts the endpoint.
 */
import { InvalidInputError } from '../../errors.ts';

export interface DrainSettings {
  vercelSecret: string | null;
  vercelVerifyCode: string | null;
}

export function drainSettingsOf(settings: Record<string, unknown>): DrainSettings {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    vercelSecret: text(settings.analyticsVercelDrainSecret),
    vercelVerifyCode: text(settings.analyticsVercelVerifyCode),
  };
}

/** '' clears a setting. Printable ASCII only: both travel in HTTP headers or their HMAC key. */
export function drainSettingsPatch(changes: Partial<DrainSettings>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const check = (value: string, what: string) => {
    if (!/^[\x21-\x7e]{0,256}$/.test(value)) {
      throw new InvalidInputError(`${what} is up to 256 printable ASCII characters without spaces`);
    }
    return value === '' ? null : value;
  };
  if (changes.vercelSecret !== undefined) {
    patch.analyticsVercelDrainSecret = check(changes.vercelSecret ?? '', 'The Vercel drain secret');
  }
  if (changes.vercelVerifyCode !== undefined) {
    patch.analyticsVercelVerifyCode = check(changes.vercelVerifyCode ?? '', 'The Vercel verification code');
  }
  return patch;
}
