/**
 * The same text, stored flat. V8 keeps a string made by `+` or a template literal as a tree of
 * its pieces, several times the size of the text, until something reads its characters; reading
 * one flattens it in place. For text a run keeps (trace rationales, fingerprints).
 * @example const rationale = flatString(`${n} of ${max} retries are left`);
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}
