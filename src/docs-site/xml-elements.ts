import { SaxesParser } from 'saxes';

/** One element of an XML file: its name, attributes, 1-based line, and its nearest ancestors' attributes. */
export interface XmlElement {
  name: string;
  attributes: Readonly<Record<string, string>>;
  line: number;
  ancestors: ReadonlyArray<{ name: string; attributes: Readonly<Record<string, string>> }>;
  /** The text directly inside it (for `<id-generator-method>` and the like). */
  text: string;
}

// A configuration or table of contents holds thousands of elements at most; a hostile one stops here.
const maximumElements = 200_000;
const maximumAncestors = 50;

/**
 * The elements of an XML file in document order, read with saxes (a strict, non-validating parser
 * that expands no entity a DTD declares, so no entity expansion attack). `error` is the first
 * syntax error with its line; the elements before it are kept.
 */
export function readXmlElements(text: string): {
  elements: XmlElement[];
  error: { line: number; message: string } | null;
} {
  const parser = new SaxesParser({ position: true });
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  let error: { line: number; message: string } | null = null;
  parser.on('opentag', (tag) => {
    if (elements.length >= maximumElements) return;
    const attributes: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) attributes[key] = String(value);
    const element: XmlElement = {
      name: tag.name,
      attributes,
      line: parser.line,
      // The nearest 50 (a copy of the whole stack for each element was quadratic on deep nesting).
      ancestors: open
        .slice(-maximumAncestors)
        .map(({ name, attributes: inherited }) => ({ name, attributes: inherited })),
      text: '',
    };
    elements.push(element);
    if (!tag.isSelfClosing) open.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) open.pop();
  });
  parser.on('text', (content) => {
    const current = open[open.length - 1];
    if (current !== undefined && current.text.length < 1_000) current.text += content;
  });
  parser.on('error', (failure) => {
    error ??= { line: parser.line, message: failure.message.split('\n')[0] ?? 'not valid XML' };
  });
  try {
    parser.write(text).close();
  } catch (failure) {
    error ??= {
      line: parser.line,
      message: failure instanceof Error ? (failure.message.split('\n')[0] ?? '') : 'not valid XML',
    };
  }
  return { elements, error };
}
