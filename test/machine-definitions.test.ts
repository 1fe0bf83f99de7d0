import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allDefinitions, DEFINITION_CONFIGS } from './support/machineDefinitions.js';

const FIXTURE = new URL('./fixtures/machineDefinitions.json', import.meta.url);

describe('the loop machine definitions', () => {
  it.each(Object.keys(DEFINITION_CONFIGS))(
    '%s: toJSON() and the always lists match the recorded definition',
    (name) => {
      const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
      const now = allDefinitions();
      if (process.env.RECORD_DEFINITIONS)
        writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
      expect(now[name]).toEqual(recorded[name]);
    },
  );
});
