import type { DemoScenario } from '../DemoScenario.js';
import { claimScenarios } from './claimScenarios.js';
import { modelScenarios } from './modelScenarios.js';

/** The demo's runs, fresh each time (scripted models keep state between calls). */
export function demoScenarios(): DemoScenario[] {
  return [...claimScenarios, ...modelScenarios()];
}
