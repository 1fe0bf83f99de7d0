/**
 * Text for HTML or SVG, in an element or a quoted attribute: `&`, `<`, `>` and quotes escaped.
 * @example `<h2>${escapeHtml(loop.id)}</h2>`
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
