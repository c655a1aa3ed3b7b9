/**
 * Our reviewed corrections to `isbot`, kept beside the AI-agent review (`ai-agent-review.ts`). Each
 * entry says why. `isbot` is a good general bot test, but it flags some people's browsers and apps,
 * and a browser test of `Mozilla/` alone misses every browser or app that does not start with it.
 * Measured on the labelled corpus in `test/fixtures/user-agents/` (see `bench/classification.ts`).
 */

export interface ReviewedPattern {
  pattern: RegExp;
  reason: string;
  /** The name reported for a bot. */
  name?: string;
}

/**
 * User agents of people: browsers that do not say `Mozilla/`, in-app browsers and apps. These win
 * over `isbot`; known AI agents and self-declared crawlers are matched before them.
 */
export const humanUserAgents: readonly ReviewedPattern[] = [
  {
    pattern: /^(?:Lynx|w3m|ELinks|Dillo|NetSurf|Links2?)\b/i,
    reason: 'text and small browsers operated by a person',
  },
  { pattern: /^Links \(/, reason: 'the Links text browser: `Links (2.29; Linux ...; text)`' },
  {
    pattern: /\bFB(?:AN|AV|IOS|_IAB|4A)\b|\[FBAN\/|FBAV\/|MetaIAB|FBIOS/,
    reason: "Facebook's and Messenger's apps and in-app browser (a person opening a shared link)",
  },
  { pattern: /\bInstagram \d/, reason: "Instagram's in-app browser" },
  { pattern: /(?:^|\s)Line\/\d/, reason: "LINE's in-app browser" },
  {
    pattern:
      /\b(?:Snapchat|Pinterest(?: for (?:Android|iOS))?|LinkedInApp|Twitter for (?:iPhone|Android))\/\d/,
    reason: 'social apps opening a link for their user',
  },
  {
    pattern: /\bAppleNews\//,
    reason: 'Apple News showing an article to its reader (`isbot` reads "eNews" as a bot)',
  },
  {
    pattern: /\bchromeframe\//,
    reason: 'Internet Explorer with the Chrome Frame plug-in (`isbot` reads "chromeframe")',
  },
  { pattern: /\bFluid\/\d/, reason: 'Fluid, a site-specific browser for macOS' },
  { pattern: /^Opera\/\d/, reason: 'Opera before version 15 did not start with `Mozilla/`' },
  { pattern: /^Midori\/\d/, reason: 'Midori, a WebKit browser whose early versions did not say `Mozilla/`' },
  {
    pattern: /\bProfile\/MIDP-\d|\bUP\.Browser\/|\bWAP Browser\b/,
    reason:
      "feature phones' browsers (Java ME handsets, Openwave's UP.Browser, MediaTek's MAUI WAP Browser): a person on a phone that does not say `Mozilla/`",
  },
];

/**
 * Clients `isbot` misses that are no person: monitoring, screenshot and performance tools that send a
 * browser's user agent with their name added.
 */
export const botUserAgents: readonly ReviewedPattern[] = [
  { pattern: /\bGTmetrix\b/, reason: 'GTmetrix page-speed tests', name: 'GTmetrix' },
  { pattern: /\bMiniature\.io\//, reason: 'Miniature.io screenshots', name: 'Miniature.io' },
  { pattern: /\bTSM-turingos\b/, reason: 'an automated browser that names itself', name: 'TSM-turingos' },
  { pattern: /\bYLT Chrome\//, reason: 'Yellow Lab Tools page audits', name: 'Yellow Lab Tools' },
  {
    pattern: /\bYahoo! Slurp\b/,
    reason:
      "Yahoo!'s crawler: `isbot` has no pattern for Slurp, and without a contact URL it read as a person",
    name: 'Yahoo! Slurp',
  },
  {
    pattern: /\bslurp\b/i,
    reason: 'a browser user agent with "slurp" added (seen in a real access log), a crawler naming itself',
    name: 'slurp',
  },
];

/** The first reviewed pattern that matches, or `undefined`. */
export function firstMatch(
  patterns: readonly ReviewedPattern[],
  userAgent: string,
): ReviewedPattern | undefined {
  return patterns.find((entry) => entry.pattern.test(userAgent));
}
