import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { toCanonicalJson } from './toCanonicalJson.js';

/**
 * The reproducibility key of an attempt's input: sha256 of its RFC 8785 canonical JSON, in hex.
 * @example reproducibilityKey({ b: 1, a: 2 }) === reproducibilityKey({ a: 2, b: 1 });
 */
export function reproducibilityKey(input: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(toCanonicalJson(input))));
}

/**
 * A progress fingerprint: a hash that ignores cosmetic changes (whitespace, case, key order).
 * @example fingerprint({ text: 'Hello  World' }) === fingerprint({ text: 'hello world' });
 */
export function fingerprint(value: unknown): string {
  return bytesToHex(sha256(utf8ToBytes(toCanonicalJson(value, true)))).slice(0, 16);
}
