import { createHash } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';
import { fingerprint, reproducibilityKey } from 'loopchart';
import { describe, expect, it } from 'vitest';

const inputs = [
  'plain text',
  { b: 2, a: [1, 'x', { z: null, y: true }] },
  { é: '日本語', '\u{1F600}': 1.5e-7, n: -0 },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":1}'),
];

describe('reproducibilityKey', () => {
  it.each(inputs)('is sha256 of the RFC 8785 canonical JSON (%j)', (input) => {
    const canonical = canonicalize(input) as string;
    expect(reproducibilityKey(input)).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(reproducibilityKey(input)).toBe(bytesToHex(sha256(utf8ToBytes(canonical))));
  });

  it('ignores key order and nothing else', () => {
    expect(reproducibilityKey({ a: 1, b: 2 })).toBe(reproducibilityKey({ b: 2, a: 1 }));
    expect(reproducibilityKey({ a: 1 })).not.toBe(reproducibilityKey({ a: 2 }));
    expect(reproducibilityKey('Text')).not.toBe(reproducibilityKey('text'));
  });

  it('never throws on values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [cyclic, 10n, Number.NaN, '\uD800 lone surrogate', undefined]) {
      expect(reproducibilityKey(value)).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('fingerprint', () => {
  it('ignores whitespace, case and key order, but not content', () => {
    expect(fingerprint({ text: 'Hello   World', n: 1 })).toBe(
      fingerprint({ n: 1, text: ' hello world' }),
    );
    expect(fingerprint({ text: 'Hello World' })).not.toBe(fingerprint({ text: 'Hello Word' }));
    expect(fingerprint('x')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('canonical JSON', () => {
  // the reference implementation of RFC 8785 this one-pass writer replaced
  test.prop([fc.jsonValue({ stringUnit: 'grapheme' })], { numRuns: 1_000 })(
    'is what the canonicalize package writes, for every JSON value',
    async (value) => {
      const { toCanonicalJson } = await import('../src/core/vocabulary/jsonText.js');
      expect(toCanonicalJson(value)).toBe(canonicalize(value));
    },
  );

  it('makes keys with lone surrogates well-formed before sorting; a key they collide with keeps the later value', async () => {
    // the reference refuses lone surrogates, so this case is pinned by hand
    const { toCanonicalJson } = await import('../src/core/vocabulary/jsonText.js');
    const value = { 'a\uD800': 1, b: 2, 'a\uFFFD': 3, '\uDC00': 4 };
    expect(toCanonicalJson(value)).toBe('{"a\uFFFD":3,"b":2,"\uFFFD":4}');
  });

  it('writes -0 as 0, keeps __proto__ as data and sorts keys by UTF-16 code units', async () => {
    const { toCanonicalJson } = await import('../src/core/vocabulary/jsonText.js');
    const value = JSON.parse('{"\u{1F600}":1,"\uFFFF":2,"__proto__":{"b":-0,"a":"x"}}');
    expect(toCanonicalJson(value)).toBe(canonicalize(value));
    expect(toCanonicalJson(value)).toBe('{"__proto__":{"a":"x","b":0},"\u{1F600}":1,"\uFFFF":2}');
  });
});

describe('canonical JSON of odd arrays', () => {
  it('writes the holes of a sparse array as null, like JSON.stringify', async () => {
    const { toCanonicalJson } = await import('../src/core/vocabulary/jsonText.js');
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    const sparse = [, 1];
    expect(toCanonicalJson(sparse)).toBe('[null,1]');
    expect(JSON.parse(toCanonicalJson(sparse))).toEqual(JSON.parse(JSON.stringify(sparse)));
    expect(reproducibilityKey(sparse)).toBe(reproducibilityKey([null, 1]));
  });
});

describe('fingerprint text', () => {
  it('is total on hostile values and folds only string values', async () => {
    const { foldedJson } = await import('../src/core/vocabulary/jsonText.js');
    const cyclic: Record<string, unknown> = { Note: '  Two   Words ' };
    cyclic.self = cyclic;
    expect(foldedJson(cyclic)).toBe('{"Note":"two words","self":"[Circular]"}');
    const hostile = {
      get boom() {
        throw new Error('getter');
      },
    };
    expect(foldedJson([hostile, Number.NaN, 10n, undefined])).toBe(
      '["[Unreadable]",null,"10n",null]',
    );
    expect(JSON.parse(foldedJson(JSON.parse('{"__proto__":{"x":1}}')))).toEqual(
      JSON.parse('{"__proto__":{"x":1}}'),
    );
  });
});
