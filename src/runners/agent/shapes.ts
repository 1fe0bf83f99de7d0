/** The shapes a request can take, from the cheapest to the costliest. */
export const SHAPES = ['single-shot', 'loop', 'pipeline'] as const;

/** `single-shot`: one attempt, one validation; `loop`: the bounded loop; `pipeline`: planned stages. */
export type Shape = (typeof SHAPES)[number];

/** How much work a shape takes on: a rule set picks the costliest shape among its matches. */
export const shapeCost = (shape: Shape): number => SHAPES.indexOf(shape);
