import { InvalidArgumentError } from 'commander';

/**
 * A commander argument parser that accepts only a whole number in `[min, max]`; anything else
 * is refused with a message naming the range, which commander prefixes with the flag.
 * @example .option('--limit <n>', 'at most n runs', integerFlag(1, 10_000))
 */
export function integerFlag(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^[+-]?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(`It must be an integer from ${min} to ${max}.`);
    }
    return number;
  };
}

/**
 * A commander argument parser for a finite number greater than `above`.
 * @example .option('--max-cost <n>', 'cost budget', numberFlag(0))
 */
export function numberFlag(above: number): (value: string) => number {
  return (value) => {
    const number = value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(number) || number <= above) {
      throw new InvalidArgumentError(`It must be a number greater than ${above}.`);
    }
    return number;
  };
}
