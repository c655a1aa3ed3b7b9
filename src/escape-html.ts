/**
 * Escapes text for HTML text and attribute values (quoted with `"` or `'`). The backtick is
 * escaped too: harmless in both, and it closes the old Internet Explorer unquoted-attribute hole.
 *
 *   escapeHtml('<b title="x">') // '&#60;b title=&#34;x&#34;&#62;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => `&#${character.charCodeAt(0)};`);
}
