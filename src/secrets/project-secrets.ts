/**
 * Which project settings are secrets, sealing them in a settings patch before it is stored, and
 * opening one where it is used. Secrets stay sealed in every `Project` the code passes around; only
 * the code host that needs a token opens it.
 */
import type { SecretBox } from './secret-box.ts';

/** Paths into `projects.settings` that hold secrets (one place: add new ones here). */
export const projectSecretPaths: readonly (readonly string[])[] = [
  ['github', 'token'],
  ['github', 'privateKey'],
  ['gitlab', 'token'],
  // The webhook receivers' verification secret (`quire project update --hook-secret`).
  ['hookSecret'],
  // The Vercel log drain's signing secret (`quire analytics settings --vercel-drain-secret`).
  ['analyticsVercelDrainSecret'],
];

type Settings = Record<string, unknown>;

function isRecord(value: unknown): value is Settings {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `settings` with each secret passed through `change` (strings only; null and absent
 * values are left as they are). Returns null when nothing changed.
 */
function mapSecrets(settings: Settings, change: (value: string) => string): Settings | null {
  let changed = false;
  const copy: Settings = structuredClone(settings);
  for (const secretPath of projectSecretPaths) {
    let parent: unknown = copy;
    for (const part of secretPath.slice(0, -1)) parent = isRecord(parent) ? parent[part] : undefined;
    const name = secretPath.at(-1)!;
    if (!isRecord(parent) || typeof parent[name] !== 'string') continue;
    const next = change(parent[name]);
    if (next !== parent[name]) {
      parent[name] = next;
      changed = true;
    }
  }
  return changed ? copy : null;
}

/** The patch with every secret in it sealed (values already sealed are left alone). */
export function sealSettingsPatch(patch: Settings, box: SecretBox): Settings {
  return mapSecrets(patch, (value) => (box.needsSealing(value) ? box.seal(box.open(value)) : value)) ?? patch;
}

/**
 * Settings whose secrets are all sealed under the current key, or null when they already are.
 * A value no key opens is left as it is and counted in `unreadable` (it fails where it is used).
 */
export function resealSettings(
  settings: Settings,
  box: SecretBox,
  unreadable: { count: number } = { count: 0 },
): Settings | null {
  return mapSecrets(settings, (value) => resealValue(value, box, unreadable));
}

export function resealValue(value: string, box: SecretBox, unreadable: { count: number }): string {
  if (!box.needsSealing(value)) return value;
  try {
    return box.seal(box.open(value));
  } catch {
    unreadable.count += 1;
    return value;
  }
}
