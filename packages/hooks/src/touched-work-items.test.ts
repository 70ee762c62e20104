import fc from 'fast-check';
import { workItemIdProblem } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { editedArtifact } from './edited-artifact.js';
import { parsePushUpdates, touchedWorkItems } from './touched-work-items.js';

describe('touchedWorkItems', () => {
  it('names the work-item folders under the spec root and nothing beside them', () => {
    expect(
      touchedWorkItems('docs/specs', [
        'docs/specs/README.md',
        'docs/specs/issue-1/tasks.md',
        'docs/specs/issue-1/evidence/run.json',
        'docs/specs/issue-2/design.md',
        'docs/specsX/issue-3/tasks.md',
        'src/docs/specs/issue-4/tasks.md',
        'docs/specs/.hidden/x.md',
      ]),
    ).toEqual(['issue-1', 'issue-2']);
    expect(touchedWorkItems('specs/', ['specs/a/b.md'])).toEqual(['a']);
  });

  it('only ever returns valid ids, each from a path inside the spec root', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom('docs', 'specs', 'a', '..', '.', 'x y', 'issue-1', 'README.md'), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'))), (paths) => {
        for (const id of touchedWorkItems('docs/specs', paths)) {
          expect(workItemIdProblem(id)).toBeUndefined();
          // A leading `./` names the same path (the editor-path rules accept it).
          expect(paths.some((p) => p.replace(/^(\.\/)+/, '').startsWith(`docs/specs/${id}/`))).toBe(true);
        }
      }),
    );
  });
});

describe('editedArtifact', () => {
  it('maps a write under the spec root to its work item, and anything else to nothing', () => {
    expect(editedArtifact('docs/specs', 'docs/specs/issue-1/tasks.md')).toEqual({ workItem: 'issue-1', file: 'docs/specs/issue-1/tasks.md' });
    expect(editedArtifact('docs/specs', './docs/specs/issue-1/tasks.md')?.workItem).toBe('issue-1');
    for (const path of ['docs/specs/README.md', 'src/a.ts', '../docs/specs/issue-1/tasks.md', '/docs/specs/a/b.md', 'docs/specs/../x/y.md']) {
      expect(editedArtifact('docs/specs', path)).toBeUndefined();
    }
  });
});

describe('parsePushUpdates', () => {
  const sha = 'a'.repeat(40);
  it('reads git pre-push lines and ignores blank ones', () => {
    expect(parsePushUpdates(`refs/heads/main ${sha} refs/heads/main ${'0'.repeat(40)}\n\n`)).toEqual({
      ok: true,
      updates: [{ localRef: 'refs/heads/main', localSha: sha, remoteRef: 'refs/heads/main', remoteSha: '0'.repeat(40) }],
    });
    expect(parsePushUpdates('')).toEqual({ ok: true, updates: [] });
  });

  it('rejects anything else with the line number: the gate fails closed', () => {
    const parsed = parsePushUpdates(`refs/heads/main ${sha} refs/heads/main\n`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain('line 1');
    expect(parsePushUpdates(`a b c d\n`).ok).toBe(false);
  });
});
