import { readFileSync } from 'node:fs';
import * as main from 'loopchart';
import * as analysis from 'loopchart/analysis';
import * as persistence from 'loopchart/persistence';
import * as pipeline from 'loopchart/pipeline';
import { describe, expect, expectTypeOf, it } from 'vitest';

// The value names the main entry exported before it was split, each with the entry it lives on now.
const MOVED: Record<string, Record<string, unknown>> = {
  CHECKPOINT_ERROR_CODES: persistence,
  CHECKPOINT_FORMAT: persistence,
  RUN_STATUSES: persistence,
  UnboundedLoopError: analysis,
  WAITS_FOR_HUMAN: analysis,
  assertBoundedLoops: analysis,
  budgetGuard: analysis,
  checkpointConflict: persistence,
  createPipelineMachine: pipeline,
  decodeCheckpoint: persistence,
  describeCycle: analysis,
  findUnboundedCycles: analysis,
  isBudgetGuard: analysis,
  isUnboundedLoopError: analysis,
  machineFingerprint: persistence,
  machineGraph: analysis,
  resumePipeline: pipeline,
  runPipeline: pipeline,
  toMachineJson: analysis,
  toMermaid: analysis,
};
// createWorker and QUEUE_STATES were retired with the scheduler: scale-out runs on loopchart/dbos.
const KEPT = [
  'CheckpointError',
  'DECISIONS',
  'FAILURE_KINDS',
  'LOOP_STATUSES',
  'LoopConfigError',
  'LoopStepFailure',
  'MemoryCheckpointStore',
  'OK_STATUSES',
  'clarificationRequest',
  'classifyFailure',
  'createLoopMachine',
  'defaultClassifyFailure',
  'emptyResult',
  'extractJson',
  'fingerprint',
  'isCheckpointError',
  'isLoopConfigError',
  'isLoopStepFailure',
  'isOkStatus',
  'isPausedRun',
  'loopMachineFor',
  'parseVerdict',
  'permanentFailure',
  'policyRejection',
  'reproducibilityKey',
  'resolveConfig',
  'resumeLoop',
  'routeAfterValidation',
  'runLoop',
  'runLoopMachine',
  'schemaValidator',
  'transientFailure',
  'uncertainSideEffect',
  'withCost',
];

// The type names moved to subpaths: a missing one fails the typecheck.
type MovedTypes = [
  import('loopchart/persistence').Checkpoint,
  import('loopchart/persistence').CheckpointErrorCode,
  import('loopchart/pipeline').CrossCheckContext,
  import('loopchart/analysis').CycleCheckOptions,
  import('loopchart/analysis').GraphEdge,
  import('loopchart/analysis').GraphEdgeKind,
  import('loopchart/analysis').GraphNode,
  import('loopchart/analysis').GraphNodeType,
  import('loopchart/pipeline').LayerCheck,
  import('loopchart/persistence').ListOptions,
  import('loopchart/persistence').LoopPhase,
  import('loopchart/analysis').MachineGraph,
  import('loopchart/analysis').MachineJson,
  import('loopchart/analysis').MachineJsonEdge,
  import('loopchart/analysis').MermaidOptions,
  import('loopchart/persistence').PersistedSnapshot,
  import('loopchart/pipeline').PipelineContext,
  import('loopchart/pipeline').PipelineEmitted,
  import('loopchart/pipeline').PipelineEvent,
  import('loopchart/pipeline').PipelineMachine,
  import('loopchart/pipeline').PipelineMachineInput,
  import('loopchart/pipeline').PipelineOutcome,
  import('loopchart/pipeline').PipelinePause,
  import('loopchart/pipeline').PipelinePaused,
  import('loopchart/pipeline').PipelinePlan,
  import('loopchart/pipeline').PipelineRecord,
  import('loopchart/pipeline').PipelineRunOptions,
  import('loopchart/pipeline').PipelineRunResult,
  import('loopchart/pipeline').PipelineStage,
  import('loopchart/pipeline').ResumePipelineOptions,
  import('loopchart/persistence').RunStatus,
  import('loopchart/persistence').RunSummary,
  import('loopchart/pipeline').StageInputContext,
  import('loopchart/pipeline').StageReport,
  import('loopchart/pipeline').StageStatus,
  import('loopchart/analysis').UnboundedCycle,
];

describe('the entries', () => {
  it('keeps the main entry to what a loop user needs: at most 45 values', () => {
    expect(Object.keys(main).length).toBeLessThanOrEqual(45);
  });

  it.each(Object.entries(MOVED))('%s is importable from its subpath entry', (name, entry) => {
    expect(entry[name]).toBeDefined();
  });

  it('keeps every other value the main entry had', () => {
    const exported = main as Record<string, unknown>;
    expect(KEPT.filter((name) => exported[name] === undefined)).toEqual([]);
  });

  it('names every moved type on its entry', () => {
    expectTypeOf<MovedTypes['length']>().toEqualTypeOf<36>();
  });

  it('lists each subpath entry in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    for (const entry of ['./analysis', './persistence', './pipeline']) {
      expect(pkg.exports[entry], entry).toBeDefined();
    }
  });
});
