import { describe, expect, it } from 'vitest';
import { check, ENVIRONMENT, files, record, TOOLS } from './examples.js';
import { judgeCheck, type CurrentState } from './judge.js';

const unit = { ...check('unit', ['AC1']), source: 'config' as const };
const now = (more: Partial<CurrentState> = {}): CurrentState => ({ dependencies: new Map([['unit', files('1')]]), environment: ENVIRONMENT, tools: TOOLS, ...more });
const judged = (r: ReturnType<typeof record>, current: CurrentState | { unavailable: string } = now()) => {
  const { status, reasons } = judgeCheck(unit, { record: r }, current);
  return { status, reasons };
};

describe('judgeCheck', () => {
  it('is current when nothing it is bound to changed', () => {
    expect(judged(record(unit))).toEqual({ status: 'current', reasons: [] });
  });

  it('is stale without dependency information, and when the state now cannot be read: fail closed', () => {
    expect(judged({ ...record(unit), dependencies: null })).toEqual({ status: 'stale', reasons: ['the record holds no dependency information'] });
    const { dependencies: _d, ...without } = record(unit);
    expect(judged(without as ReturnType<typeof record>).status).toBe('stale');
    expect(judged(record(unit), { unavailable: 'git failed' })).toEqual({ status: 'stale', reasons: ["the repository's state cannot be read to compare with: git failed"] });
  });

  it('is stale when the environment or a tool version changed, naming each change', () => {
    const moved = now({ environment: { os: 'darwin-arm64', node: 'v22.1.0', files: { 'pnpm-lock.yaml': 'b'.repeat(64), '.nvmrc': 'c'.repeat(64) } }, tools: { 'the-loop': '0.2.0' } });
    expect(judged(record(unit), moved)).toEqual({
      status: 'stale',
      reasons: ['the OS is darwin-arm64; it ran on linux-x64', 'Node is v22.1.0; it ran on v20.0.0', 'environment files changed: .nvmrc (added), pnpm-lock.yaml (changed)', 'the-loop is 0.2.0; the run used 0.1.0'],
    });
  });

  it('names the files that changed when the record lists them', () => {
    const then = { ...record(unit), dependencies: { ...files('1'), scope: 'paths' as const, paths: ['src/**'], files: { 'src/a.ts': 'a1', 'src/b.ts': 'b1' } } };
    const current = now({ dependencies: new Map([['unit', { ...files('2'), scope: 'paths' as const, paths: ['src/**'], files: { 'src/a.ts': 'a2', 'src/c.ts': 'c1' } }]]) });
    const declared = { ...unit, paths: ['src/**'] };
    expect(judgeCheck(declared, { record: { ...then, check: { ...then.check, paths: ['src/**'] } } }, current).reasons).toEqual([
      '3 files it depends on changed: src/a.ts (changed), src/b.ts (removed), src/c.ts (added)',
    ]);
  });

  it('is failing when the run did not pass, whatever else changed', () => {
    expect(judged(record(unit, { exitCode: 2 }), now({ tools: { 'the-loop': '9' } }))).toEqual({ status: 'failing', reasons: ['exit 2 (expected 0)', 'the-loop is 9; the run used 0.1.0'] });
  });
});
