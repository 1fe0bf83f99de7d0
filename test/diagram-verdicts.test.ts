import { budgetGuard, classifyCycles, toMermaid } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';
import { agent } from './fixtures/cycleVerdictMachines.mjs';

// toMermaid and `loopchart diagram --machine` draw each cycle's verdict: unbounded hops `∞` and
// red states, undecided `?` and amber, states on bounded cycles only green, with a legend.

const FIXTURE = 'test/fixtures/cycleVerdictMachines.mjs';
const cli = async (...argv: string[]) => {
  const capture = captureIo();
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
};
const classLine = (text: string, className: string) =>
  text
    .split('\n')
    .find((line) => line.trim().startsWith('class ') && line.endsWith(` ${className}`));

describe('toMermaid draws the three verdicts differently', () => {
  const text = toMermaid(agent);

  it('marks the hops of an unbounded cycle ∞ and its states red, an undecided one ? and amber', () => {
    expect(text).toMatch(/thinking --> acting : ∞ CALL_TOOL/);
    expect(text).toMatch(/acting --> thinking : ∞ .*done\.0\.agent\.work\.acting/);
    expect(text).toMatch(/first --> second : \? NEXT/);
    expect(text).toContain('classDef unboundedCycle fill:#fde8e7,stroke:#c62828,stroke-width:3px');
    expect(classLine(text, 'unboundedCycle')).toBe('  class thinking,acting unboundedCycle');
    expect(classLine(text, 'undecidedCycle')).toBe('  class first,second undecidedCycle');
  });

  it('colours states only on bounded cycles green, and never draws an unbounded hop as bounded', () => {
    expect(classLine(text, 'boundedCycle')).toBe('  class review boundedCycle');
    expect(text).toMatch(/review --> thinking : ↻ REVISE/);
    expect(text).not.toMatch(/review --> thinking : [∞?]/);
  });

  it('opens with a legend naming each unbounded or undecided cycle, why, and the marker to add', () => {
    const legend = text.split('\n').filter((line) => line.startsWith('  %%'));
    expect(legend[1]).toMatch(
      /^ {2}%% cycles \(loopchart's termination check\): 1 unbounded .*, 1 undecided .*, 1 bounded/,
    );
    expect(
      legend.some((line) =>
        line.startsWith(
          '  %% ∞ agent.work.thinking → agent.work.acting → agent.work.thinking: the machine can go round it on its own',
        ),
      ),
    ).toBe(true);
    expect(
      legend.some((line) =>
        /^ {2}%% \? agent\.pages\.first → .*Marker: gatedBy\('user', relay\)$/.test(line),
      ),
    ).toBe(true);
  });

  it('draws what it is given: the cycles passed, or none', () => {
    expect(toMermaid(agent, { cycles: false })).not.toMatch(/ : ∞|classDef \w+Cycle|%% cycles/);
    const unboundedOnly = classifyCycles(agent).filter((cycle) => cycle.verdict === 'unbounded');
    const drawn = toMermaid(agent, { cycles: unboundedOnly });
    expect(drawn).toMatch(/thinking --> acting : ∞/);
    expect(drawn).not.toMatch(/classDef (undecidedCycle|boundedCycle)/);
  });

  it('a budget guard turns the agent loop green', () => {
    const capped = setup({ guards: { underCap: budgetGuard(() => true) } }).createMachine({
      id: 'capped',
      initial: 'a',
      states: { a: { always: { guard: 'underCap', target: 'b' } }, b: { after: { 10: 'a' } } },
    });
    const drawn = toMermaid(capped);
    expect(classLine(drawn, 'boundedCycle')).toBe('  class a,b boundedCycle');
    expect(drawn).not.toMatch(/ : ∞/);
  });
});

describe('loopchart diagram --machine', () => {
  it("draws a module's machine with its verdicts", async () => {
    const { code, stdout } = await cli('diagram', '--machine', `${FIXTURE}#agent`);
    expect(code).toBe(0);
    expect(stdout.trimEnd()).toBe(toMermaid(agent).trimEnd());
    const json = JSON.parse(
      (await cli('diagram', '--machine', `${FIXTURE}#toggle`, '--format', 'json')).stdout,
    );
    expect(json.id).toBe('toggle');
  });

  it('says what is wrong with the module or the export, with exit code 2', async () => {
    const several = await cli('diagram', '--machine', FIXTURE);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/exports 2 machines \(agent, toggle\); name one as .*#<name>/);
    const missing = await cli('diagram', '--machine', `${FIXTURE}#nope`);
    expect(missing.stderr).toMatch(/exports no XState machine named nope/);
    const absent = await cli('diagram', '--machine', 'test/fixtures/absent.mjs');
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/--machine test\/fixtures\/absent\.mjs could not be imported/);
    const both = await cli('diagram', '--machine', `${FIXTURE}#agent`, '--max-retries', '2');
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--machine.*cannot be used with.*--max-retries/);
  });
});
