import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseVerdict, validationResultSchema } from '../src/core/vocabulary/validation.js';

// parseVerdict reads the two common answers without zod; whatever it is given, its verdict must
// be the one the schema alone gives.
function bySchema(raw: unknown) {
  const parsed = validationResultSchema.safeParse(raw);
  return parsed.success ? parsed.data : 'malformed';
}

function byParseVerdict(raw: unknown) {
  const verdict = parseVerdict(raw);
  return 'malformed' in verdict ? 'malformed' : verdict;
}

const severity = fc.constantFrom('correctable', 'fundamental', 'fatal', '', 1, undefined);
const message = fc.oneof(
  fc.string(),
  fc.string({ minLength: 3990, maxLength: 4010 }),
  fc.constantFrom(undefined, null, 3),
);
const extras = fc.dictionary(fc.constantFrom('details', 'x', 'note', 'valid'), fc.anything(), {
  maxKeys: 2,
});
const error = fc.oneof(
  fc
    .record({ severity, message }, { requiredKeys: [] })
    .chain((base) => extras.map((more) => ({ ...base, ...more }))),
  fc.constantFrom(null, undefined, 'text', []),
);
const answer = fc.oneof(
  fc
    .record(
      { valid: fc.constantFrom(true, false, 'true', 0, undefined), error },
      { requiredKeys: [] },
    )
    .chain((base) => extras.map((more) => ({ ...base, ...more }))),
  fc.anything(),
);

describe('parseVerdict', () => {
  test.prop([answer], { numRuns: 3000 })('gives the schema’s verdict for any answer', (raw) => {
    const expected = bySchema(raw);
    const actual = byParseVerdict(raw);
    expect(actual).toStrictEqual(expected);
    if (typeof expected === 'object') expect(Object.keys(actual)).toEqual(Object.keys(expected));
  });

  it('cuts a long message as the schema does, and drops unknown keys', () => {
    const raw = {
      valid: false,
      extra: 1,
      error: { severity: 'correctable', message: 'm'.repeat(5000), x: 2 },
    };
    expect(parseVerdict(raw)).toStrictEqual(bySchema(raw));
    expect(parseVerdict({ valid: true, note: 'x' })).toStrictEqual({ valid: true });
  });

  it('leaves objects that are not plain records to the schema', () => {
    const inherited = Object.create({ valid: true });
    expect(byParseVerdict(inherited)).toStrictEqual(bySchema(inherited));
    const nullProto = Object.assign(Object.create(null), { valid: true });
    expect(byParseVerdict(nullProto)).toStrictEqual(bySchema(nullProto));
  });

  it('marks an answer whose properties throw as malformed, as before', () => {
    const raw = {
      get valid(): boolean {
        throw new Error('boom');
      },
    };
    expect(parseVerdict(raw)).toStrictEqual({
      valid: false,
      malformed: 'its properties could not be read',
    });
  });
});
