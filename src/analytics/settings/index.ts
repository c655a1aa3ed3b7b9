/** A project's analytics settings (allowed beacon origins, ...). */
export { analyticsSettingsOf, parseOrigin, settingsPatch } from './analytics-settings.ts';
