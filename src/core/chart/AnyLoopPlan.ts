import type { AnyLoopConfig } from '../vocabulary/AnyLoopConfig.js';
import type { LoopPlan } from './compileLoop.js';

/**
 * A compiled loop of any input and candidate types, for collections of plans (pipeline stages):
 * every `LoopPlan<I, C>` fits it, as every `LoopConfig<I, C>` fits `AnyLoopConfig`. Its charts
 * are left out (a chart's types hold I and C both ways); `isLoopPlan` tells it from a config.
 * @example const stage: { loop: AnyLoopConfig | AnyLoopPlan } = { loop: compileLoop(ledgerLoop) };
 */
export interface AnyLoopPlan
  extends Omit<LoopPlan<unknown, unknown>, 'config' | 'chart' | 'sharedChart'> {
  readonly config: AnyLoopConfig;
}
