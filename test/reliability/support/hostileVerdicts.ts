import { cyclic, hostileProxy, huge, protoKeyed, throwingGetters } from './hostileValues.js';

export const VERDICT_TAGS = [
  'valid',
  'validWithCyclicDetails',
  'correctable',
  'correctableWithCyclicDetails',
  'fundamental',
  'noDiagnosticNull',
  'noDiagnosticMissing',
  'spoofedSeverity',
  'validAsString',
  'errorAsString',
  'garbage',
  'proxy',
  'throwingGetters',
  'hugeMessage',
  'protoKeyed',
  'frozenCorrectable',
] as const;
export type VerdictTag = (typeof VERDICT_TAGS)[number];

/** Builds the validator output a tag names; `garbage` is any value fast-check generated. */
export function verdictOf(tag: VerdictTag, message: string, garbage: unknown): unknown {
  switch (tag) {
    case 'valid':
      return { valid: true };
    case 'validWithCyclicDetails':
      return { valid: true, details: cyclic() };
    case 'correctable':
      return { valid: false, error: { severity: 'correctable', message } };
    case 'correctableWithCyclicDetails':
      return { valid: false, error: { severity: 'correctable', message, details: cyclic() } };
    case 'fundamental':
      return { valid: false, error: { severity: 'fundamental', message } };
    case 'noDiagnosticNull':
      return { valid: false, error: null };
    case 'noDiagnosticMissing':
      return { valid: false };
    case 'spoofedSeverity':
      return { valid: false, error: { severity: 'fatal', message } };
    case 'validAsString':
      return { valid: 'true' };
    case 'errorAsString':
      return { valid: false, error: message };
    case 'garbage':
      return garbage;
    case 'proxy':
      return hostileProxy();
    case 'throwingGetters':
      return throwingGetters();
    case 'hugeMessage':
      return { valid: false, error: { severity: 'correctable', message: huge().text } };
    case 'protoKeyed':
      return { ...protoKeyed(), valid: false, error: { severity: 'correctable', message } };
    case 'frozenCorrectable':
      return Object.freeze({
        valid: false,
        error: Object.freeze({ severity: 'correctable', message }),
      });
  }
}
