import type { Verdict } from '../vocabulary/validation.js';

/** The validator returned something that is not a validation result. */
export function isMalformed(verdict: Verdict | undefined): boolean {
  return verdict !== undefined && 'malformed' in verdict;
}

/** The validator accepted the candidate. */
export function isValid(verdict: Verdict | undefined): boolean {
  return verdict?.valid === true;
}

/** The validator rejected the candidate with an error refining cannot fix. */
export function isFundamental(verdict: Verdict | undefined): boolean {
  return (
    verdict?.valid === false && 'error' in verdict && verdict.error?.severity === 'fundamental'
  );
}

/** The validator rejected the candidate without saying why: there is nothing to refine with. */
export function lacksDiagnostic(verdict: Verdict | undefined): boolean {
  return (
    verdict?.valid === false && !isMalformed(verdict) && !('error' in verdict && verdict.error)
  );
}
