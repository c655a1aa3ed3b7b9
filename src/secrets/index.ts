export { announceSecretKey, followSecretKeyChanges } from './key-changes.ts';
export { projectSecretPaths, sealSettingsPatch } from './project-secrets.ts';
export { resealAllSecrets } from './reseal-secrets.ts';
export { createSecretBox, isSealed, keyIdOf, type SecretBox } from './secret-box.ts';
export { addKeyToFile, dropOldKeysFromFile, loadSecretKeys, parseSecretKey } from './secret-keys.ts';
