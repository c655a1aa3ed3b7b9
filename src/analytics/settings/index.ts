/** A project's analytics settings (allowed beacon origins, log drain secrets, ...). */
export { analyticsSettingsOf, parseOrigin, settingsPatch } from './analytics-settings.ts';
export { type DrainSettings, drainSettingsOf, drainSettingsPatch } from './drain-settings.ts';
