import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { flatString } from './flatString.js';
import { foldedJson, toCanonicalJson } from './jsonText.js';

type HexDigest = (text: string) => string;
interface NodeCrypto {
  /** One-shot, Node ≥ 20.12: about twice as fast as createHash on short texts. */
  hash?(algorithm: 'sha256', text: string, encoding: 'hex'): string;
  createHash(algorithm: 'sha256'): {
    update(text: string, encoding: 'utf8'): { digest(encoding: 'hex'): string };
  };
}

// Node's own sha256 is about five times faster than a JavaScript one; browsers get @noble/hashes.
// process.getBuiltinModule reaches it without an import, so the core still bundles for browsers.
const nativeSha256 = ((): HexDigest | undefined => {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = node?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (!crypto?.createHash) return undefined;
  const { hash } = crypto;
  if (hash) return (text) => hash('sha256', text, 'hex');
  return (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
})();

const sha256Hex: HexDigest = nativeSha256 ?? ((text) => bytesToHex(sha256(utf8ToBytes(text))));

/**
 * The reproducibility key of an attempt's input: sha256 of its RFC 8785 canonical JSON, in hex.
 * @example reproducibilityKey({ b: 1, a: 2 }) === reproducibilityKey({ a: 2, b: 1 });
 */
export function reproducibilityKey(input: unknown): string {
  return sha256Hex(toCanonicalJson(input));
}

/**
 * A progress fingerprint: a hash that ignores cosmetic changes (whitespace, case, key order).
 * @example fingerprint({ text: 'Hello  World' }) === fingerprint({ text: 'hello world' });
 */
export function fingerprint(value: unknown): string {
  return hash64Hex(foldedJson(value));
}

// A fast 64-bit (two-lane, cyrb53-style) hash: a fingerprint only has to tell repeats apart, and a
// step that wants to fake a stall can simply repeat itself, so it needs no cryptographic strength.
function hash64Hex(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return flatString(
    (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0'),
  );
}
