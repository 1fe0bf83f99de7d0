import { expect } from 'vitest';

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Error: Error.prototype,
  Promise: Promise.prototype,
} as const;

type Descriptors = Record<string, Map<PropertyKey, PropertyDescriptor>>;

/** The own properties of the built-in prototypes, to compare after untrusted data went through. */
export function snapshotPrototypes(): Descriptors {
  return Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [
      name,
      new Map(Reflect.ownKeys(proto).map((key) => [key, descriptorOf(proto, key)])),
    ]),
  );
}

function descriptorOf(proto: object, key: PropertyKey): PropertyDescriptor {
  return Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor;
}

/**
 * Fails if a built-in prototype gained, lost or changed a property since `before`, or if a fresh
 * object inherits the canary key `polluted` that the hostile payloads carry.
 */
export function expectPrototypesClean(before: Descriptors): void {
  const changed: string[] = [];
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    const was = before[name] as Map<PropertyKey, PropertyDescriptor>;
    const keys = new Set([...was.keys(), ...Reflect.ownKeys(proto)]);
    for (const key of keys) {
      const a = was.get(key);
      const b = Object.getOwnPropertyDescriptor(proto, key);
      const same =
        a !== undefined &&
        b !== undefined &&
        Object.is(a.value, b.value) &&
        a.get === b.get &&
        a.set === b.set;
      if (!same) changed.push(`${name}.prototype.${String(key)}`);
    }
  }
  expect(changed).toEqual([]);
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}
