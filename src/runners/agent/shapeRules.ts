import { type Shape, shapeCost } from './shapes.js';

/** One row of the heuristic tier: when `match` is found in a request, it suggests `shape`. */
export interface ShapeRule {
  /** Names the rule in the reasons, e.g. `compare`. */
  id: string;
  shape: Shape;
  /** A word or phrase (case-insensitive, whole words, any spacing) or a regular expression. */
  match: string | RegExp;
  /** Why the match suggests the shape, one short clause. */
  reason: string;
}

/** The built-in rules (the seed's keywords); a router puts its own `rules` before them. */
export const DEFAULT_SHAPE_RULES: readonly ShapeRule[] = [
  {
    id: 'compare',
    shape: 'pipeline',
    match: /\b(compare|comparison|versus|vs\.?)\b/i,
    reason: 'it compares several things',
  },
  {
    id: 'for-each',
    shape: 'pipeline',
    match: /\bfor (each|every)\b/i,
    reason: 'it repeats work for each item',
  },
  {
    id: 'summary-table',
    shape: 'pipeline',
    match: 'summary table',
    reason: 'it builds a summary table from several parts',
  },
  {
    id: 'first-then',
    shape: 'pipeline',
    match: /\bfirst\b[\s\S]*\bthen\b/i,
    reason: 'it names steps in order (first … then)',
  },
  {
    id: 'produce',
    shape: 'loop',
    match: /\b(draft|write|rewrite|generate|compose|fix|translate)\b/i,
    reason: 'it produces an artefact a validator can reject and a refine can improve',
  },
  {
    id: 'constraints',
    shape: 'loop',
    match: /\b(make sure|ensure|must|until|at least|at most|no more than)\b/i,
    reason: 'it states constraints to check and retry against',
  },
];

/** A rule that matched, and the text it matched. */
export interface RuleMatch {
  rule: string;
  shape: Shape;
  reason: string;
  text: string;
}

/** What the heuristic tier concluded. */
export interface HeuristicVerdict {
  shape: Shape;
  matches: RuleMatch[];
  reasons: string[];
}

/** A rule's `match` as a stateless regular expression (a `g` or `y` flag would carry state between calls). */
export function ruleMatcher(match: string | RegExp): RegExp {
  if (typeof match !== 'string') return new RegExp(match.source, match.flags.replace(/[gy]/g, ''));
  const words = match
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

/**
 * The heuristic tier: every rule is tried; the costliest suggested shape wins, and with no match
 * the request gets `fallbackShape` (a loop is a cost taken on purpose, not a default).
 * @example matchShapeRules('Compare Acme and Globex', DEFAULT_SHAPE_RULES).shape // 'pipeline'
 */
export function matchShapeRules(
  request: string,
  rules: readonly ShapeRule[],
  fallbackShape: Shape = 'single-shot',
): HeuristicVerdict {
  const matches = rules.flatMap((rule): RuleMatch[] => {
    const found = ruleMatcher(rule.match).exec(request);
    return found ? [{ rule: rule.id, shape: rule.shape, reason: rule.reason, text: found[0] }] : [];
  });
  if (matches.length === 0) {
    return {
      shape: fallbackShape,
      matches,
      reasons: [`no rule matched, so the default shape ${fallbackShape}`],
    };
  }
  const shape = matches.reduce<Shape>(
    (best, match) => (shapeCost(match.shape) > shapeCost(best) ? match.shape : best),
    'single-shot',
  );
  return {
    shape,
    matches,
    reasons: matches.map((m) => `rule '${m.rule}' matched "${m.text}" → ${m.shape}: ${m.reason}`),
  };
}
