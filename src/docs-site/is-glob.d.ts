// is-glob 4 ships no types of its own; Redocly tells its glob patterns from plain paths with it.
declare module 'is-glob' {
  export default function isGlob(value: string, options?: { strict?: boolean }): boolean;
}
