/**
 * The request headers that classification and verification read, passed by the batch endpoint's
 * `headers` object and by log formats that record them. Names are lower-case, as HTTP/2 sends them
 * (RFC 9113 §8.2.1); anything off this list is refused rather than silently dropped, so that a client
 * learns at once that a header is not used.
 */

export const signalHeaderNames = [
  'accept',
  'from',
  'referer',
  'sec-ch-ua',
  'signature',
  'signature-agent',
  'signature-input',
  'user-agent',
] as const;

export type SignalHeaderName = (typeof signalHeaderNames)[number];

export type SignalHeaders = Partial<Record<SignalHeaderName, string>>;

/** Longest accepted value of one signal header (Signature-Input with many components is long). */
export const maximumSignalHeaderLength = 4096;

/**
 * C0 controls and DEL. No header value, path or user agent needs one, a NUL breaks PostgreSQL's text
 * type, and line breaks forge log lines; tab is refused too, since no field here carries one.
 */
export function containsControlCharacter(value: string): boolean {
  return controlCharacter.test(value);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const controlCharacter = /[\u0000-\u001f\u007f]/;
