type Target = string | { target?: string } | readonly { target?: string }[] | undefined;

interface StateLike {
  always?: Target;
  on?: Record<string, Target>;
  invoke?: { onDone?: Target; onError?: Target };
}

function targetsOf(target: Target): string[] {
  if (target === undefined) return [];
  if (typeof target === 'string') return [target.replace(/^\./, '')];
  const list = Array.isArray(target) ? target : [target as { target?: string }];
  return list.flatMap((t: { target?: string }) => (t.target ? targetsOf(t.target) : []));
}

/**
 * The states a run can enter from `roots` through the branches the chart holds, in declaration
 * order: the one rule that drops what a config cannot reach (a `fallingBack` without a fallback).
 */
export function reachableStates<S>(states: S, roots: readonly string[]): S {
  const all = states as Record<string, StateLike>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    const state = all[key];
    if (seen.has(key) || state === undefined) return;
    seen.add(key);
    const next = [
      ...targetsOf(state.always),
      ...Object.values(state.on ?? {}).flatMap(targetsOf),
      ...targetsOf(state.invoke?.onDone),
      ...targetsOf(state.invoke?.onError),
    ];
    for (const target of next) visit(target);
  };
  for (const root of roots) visit(root);
  return Object.fromEntries(Object.entries(all).filter(([key]) => seen.has(key))) as S;
}
