/**
 * A project's analytics settings, kept in `projects.settings`:
 *  - `analyticsCountAiCrawlersAsAi`: count ai_search and ai_training views as `ai` in the export;
 *  - `analyticsAllowedOrigins`: the origins (`https://docs.example.com`) the browser tracker may
 *    send beacons from.
 */
import { InvalidInputError } from '../../errors.ts';

export interface AnalyticsSettings {
  countAiCrawlersAsAi: boolean;
  allowedOrigins: string[];
}

export function analyticsSettingsOf(settings: Record<string, unknown>): AnalyticsSettings {
  const origins = settings.analyticsAllowedOrigins;
  return {
    countAiCrawlersAsAi: settings.analyticsCountAiCrawlersAsAi === true,
    allowedOrigins: Array.isArray(origins) ? origins.filter((origin) => typeof origin === 'string') : [],
  };
}

/** `https://docs.example.com/` → `https://docs.example.com`; anything but an http(s) origin is refused. */
export function parseOrigin(text: string): string {
  const url = URL.parse(text.trim());
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin === 'null') {
    throw new InvalidInputError(`"${text}" is not an http(s) origin such as https://docs.example.com`);
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new InvalidInputError(`"${text}" must be an origin only (scheme, host and port), without a path`);
  }
  return url.origin;
}

export function settingsPatch(settings: Partial<AnalyticsSettings>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (settings.countAiCrawlersAsAi !== undefined)
    patch.analyticsCountAiCrawlersAsAi = settings.countAiCrawlersAsAi;
  if (settings.allowedOrigins !== undefined) patch.analyticsAllowedOrigins = settings.allowedOrigins;
  return patch;
}
