// Compile-time checks that a response schema and the library type it describes have the same
// fields: a field added to either one fails `npx tsc`, so the schema cannot drift silently.

/** True when A and B have exactly the same keys. */
export type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? true
    : false
  : false;

/** True when a value of type A is a value of the schema's type B. */
export type Fits<A, B> = [A] extends [B] ? true : false;
