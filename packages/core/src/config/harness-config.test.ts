import { describe, expect, it } from 'vitest';
import { parseHarnessConfig } from './harness-config.js';

const FILE = '.the-loop/harness-config.yaml';
const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;
const issues = (text: string): string[] => {
  const result = parseHarnessConfig(FILE, text);
  return result.ok ? [] : result.issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.message}`);
};

describe('parseHarnessConfig: defaults', () => {
  it('uses docs/specs and the default graph for an empty file or one without workflow', () => {
    for (const text of ['', '# only a comment\n', 'reviews: {}\n']) {
      const result = parseHarnessConfig(FILE, text);
      expect(result.ok && [result.config.specDir, result.config.graph.start, result.config.file]).toEqual(['docs/specs', 'brainstorming', FILE]);
    }
  });

  it('refuses a file that is not a mapping', () => {
    expect(issues('- a\n- b\n')).toEqual([`${FILE}:1:1 the configuration must be a mapping of keys to values`]);
  });

  it('refuses malformed YAML with its position instead of falling back to defaults', () => {
    expect(issues('workflow:\n  specDir: [unclosed\n')).toEqual([expect.stringMatching(new RegExp(`^${FILE.replace(/\./g, '\\.')}:3:1 `))]);
  });

  it('puts every syntax error on a line that holds it', () => {
    expect(issues(yaml('- [ ] task', 'word', 'key: [')).map((i) => i.split(' ')[0])).toEqual(['1:7', '2:1', '3:4', '3:6', '4:1'].map((p) => `${FILE}:${p}`));
  });

  it('refuses an unknown key under workflow at its line', () => {
    expect(issues(yaml('workflow:', '  specdir: specs'))).toEqual([`${FILE}:2:12 workflow: unknown key "specdir" (did you mean "specDir"?)`]);
  });
});

describe('parseHarnessConfig: workflow.specDir', () => {
  it('accepts a relative directory and normalises ./ and trailing slashes', () => {
    const result = parseHarnessConfig(FILE, yaml('workflow:', '  specDir: ./specs/items/'));
    expect(result.ok && result.config.specDir).toBe('specs/items');
  });

  it.each([
    ['/abs/specs', 'must be relative to the repository root'],
    ['C:/specs', 'must be relative to the repository root'],
    ['docs/../..', 'must stay inside the repository'],
    ['..', 'must stay inside the repository'],
    ['docs\\..\\x', 'must stay inside the repository'],
    ['"  "', 'must not be empty'],
  ])('refuses %s at its line', (dir, reason) => {
    const found = issues(yaml('workflow:', `  specDir: ${dir}`));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`:2:12 workflow\\.specDir: ${reason}`));
  });
});

describe('parseHarnessConfig: workflow.harness and workflow.timeoutSeconds', () => {
  it('reads the harness a run drives and the default node time limit', () => {
    const result = parseHarnessConfig(FILE, yaml('workflow:', '  harness: cursor', '  timeoutSeconds: 600'));
    expect(result.ok && [result.config.harness, result.config.timeoutSeconds]).toEqual(['cursor', 600]);
    const none = parseHarnessConfig(FILE, '');
    expect(none.ok && [none.config.harness, none.config.timeoutSeconds]).toEqual([undefined, undefined]);
  });

  it.each([
    ['  timeoutSeconds: .inf', ':2:19 workflow.timeoutSeconds: must be finite'],
    ['  timeoutSeconds: 0', ':2:19 workflow.timeoutSeconds: must be greater than 0'],
    ['  timeoutSeconds: "60"', ':2:19 workflow.timeoutSeconds: must be a number of seconds'],
    ['  harness: Claude Code', ':2:12 workflow.harness: must be a harness name such as claude or cursor'],
  ])('refuses %s at its line', (line, message) => {
    expect(issues(yaml('workflow:', line))).toEqual([`${FILE}${message}`]);
  });
});

describe('parseHarnessConfig: workflow.graph', () => {
  it('replaces the default graph entirely', () => {
    const result = parseHarnessConfig(FILE, yaml('workflow:', '  graph:', '    start: only', '    nodes:', '      - {id: only, phase: only, actor: agent}', '    edges: []'));
    expect(result.ok && result.config.graph.nodes.map((n) => n.id)).toEqual(['only']);
  });

  it('extends the default graph: a known id replaces that node, a new id is appended, an edge replaces the one with the same from/on', () => {
    const result = parseHarnessConfig(
      FILE,
      yaml(
        'workflow:',
        '  graph:',
        '    extends: default',
        '    nodes:',
        '      - {id: design, phase: design, actor: agent, produces: design.md, gate: [{sections: ["Threat model"]}]}',
        '      - {id: threat-review, phase: design, actor: agent}',
        '    edges:',
        '      - {from: design, to: threat-review, on: pass}',
        '      - {from: threat-review, to: design-approval, on: pass}',
      ),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { graph } = result.config;
    expect(graph.byId.get('design')?.gate).toEqual([{ sections: ['Threat model'] }]);
    expect(graph.nodes.at(-1)?.id).toBe('threat-review');
    expect(graph.edges.filter((e) => e.from === 'design' && e.on === 'pass')).toEqual([{ from: 'design', to: 'threat-review', on: 'pass' }]);
    expect(graph.byId.has('learnings')).toBe(true);
  });

  it('refuses nodes or edges that are not lists instead of extending with nothing', () => {
    expect(issues(yaml('workflow:', '  graph:', '    extends: default', '    nodes: 3', '    edges: {a: 1}'))).toEqual([
      `${FILE}:4:12 workflow.graph.nodes: must be a list`,
      `${FILE}:5:5 workflow.graph.edges: must be a list`,
    ]);
  });

  it('refuses extending anything but default or a preset, with a did-you-mean', () => {
    expect(issues(yaml('workflow:', '  graph:', '    extends: mine'))).toEqual([`${FILE}:3:14 workflow.graph.extends: "mine" is not a graph to extend; it is one of default, the-loop, kiro, spec-kit, openspec`]);
    expect(issues(yaml('workflow:', '  graph:', '    extends: kiroo'))).toEqual([expect.stringContaining('"kiroo" is not a graph to extend (did you mean "kiro"?)')]);
  });

  it('names the line of a `sectons:` typo in a replacement graph', () => {
    const found = issues(yaml('workflow:', '  graph:', '    start: a', '    nodes:', '      - id: a', '        phase: a', '        actor: agent', '        sectons: [Overview]', '    edges: []'));
    expect(found).toEqual([expect.stringMatching(/:8:\d+ node "a": unknown key "sectons" \(did you mean "sections"\?/)]);
  });

  it('reports a node id the extension declares twice instead of keeping only the last', () => {
    for (const id of ['extra', 'design']) {
      const found = issues(
        yaml('workflow:', '  graph:', '    extends: default', '    nodes:', `      - {id: ${id}, phase: design, actor: agent}`, `      - {id: ${id}, phase: design, actor: human, produces: design.md, gate: [{approved: design.md}]}`),
      );
      expect(found).toEqual([expect.stringMatching(new RegExp(`:6:\\d+ .*duplicate node id "${id}"`))]);
    }
  });

  it('names the line in this file, not the merged graph, for an error in an extension', () => {
    const found = issues(
      yaml(
        'workflow:',
        '  graph:',
        '    extends: default',
        '    nodes:',
        '      - {id: extra, phase: extra, actor: agent}',
        '      - id: design',
        '        phase: design',
        '        actor: agent',
        '        sectons: [Overview]',
        '    edges:',
        '      - {from: extra, to: nowhere, on: pass}',
      ),
    );
    expect(found).toEqual([
      expect.stringMatching(/:9:\d+ node "design": unknown key "sectons"/),
      expect.stringMatching(/:11:\d+ edge to unknown node "nowhere"/),
    ]);
  });
});

describe('parseHarnessConfig: every problem at once', () => {
  it('reports unknown keys in every section together, in file order, each with its line and a did-you-mean', () => {
    expect(
      issues(
        yaml(
          'workflow:',
          '  specdir: specs',
          'reviews:',
          '  criticReviewCont: 2',
          '  critics:',
          '    - {name: c, harness: claude, timeoutSecond: 30}',
          'hooks:',
          '  noProgresCap: 2',
          'rules:',
          '  template-residu: warn',
          'notification: {}',
        ),
      ),
    ).toEqual([
      `${FILE}:2:12 workflow: unknown key "specdir" (did you mean "specDir"?)`,
      `${FILE}:4:21 reviews: unknown key "criticReviewCont" (did you mean "criticReviewCount"?)`,
      `${FILE}:6:49 reviews.critics[0]: unknown key "timeoutSecond" (did you mean "timeoutSeconds"?)`,
      `${FILE}:8:17 hooks: unknown key "noProgresCap" (did you mean "noProgressCap"?)`,
      `${FILE}:10:20 rules: unknown key "template-residu" (did you mean "template-residue"?)`,
      `${FILE}:11:1 unknown key "notification" (did you mean "notifications"?)`,
    ]);
  });

  it('reports a wrong value beside an unknown key, and a graph error beside both', () => {
    expect(issues(yaml('hooks:', '  noProgressCap: 0', 'rules:', '  tasks-incomplete: warning', 'workflow:', '  graph: {start: a, nodes: [], edges: []}', 'extra: 1'))).toEqual([
      expect.stringMatching(/:2:\d+ hooks\.noProgressCap: must be a whole number from 1 to 100$/),
      expect.stringMatching(/:4:\d+ rules\.tasks-incomplete: must be error, warn or off$/),
      expect.stringMatching(/:6:\d+ start node "a" is not declared/),
      expect.stringMatching(/:6:\d+ nodes: Invalid length/),
      `${FILE}:7:8 unknown key "extra"`,
    ]);
  });

  it('names what replaces each key of the earlier the-loop, at the top or under workflow', () => {
    const found = issues(yaml('version: 2', 'specApproach: spec-driven', 'workflow:', '  requireHumanReviewPerPhase: true', '  capabilitiesDir: docs/capabilities', '  learningsDir: docs/learnings', '  phaseLabelPrefix: "phase:"'));
    expect(found).toEqual([
      `${FILE}:1:10 unknown key "version" — a key of the earlier the-loop: this file carries no version; delete it`,
      expect.stringMatching(/^\S+:2:15 unknown key "specApproach" — a key of the earlier the-loop: the lifecycle is the graph now; .*workflow\.graph, then delete it$/),
      expect.stringMatching(/^\S+:4:31 workflow: unknown key "requireHumanReviewPerPhase" — a key of the earlier the-loop: human review is a node of the graph now/),
      expect.stringMatching(/^\S+:5:20 workflow: unknown key "capabilitiesDir" — .*"Capability docs" section/),
      expect.stringMatching(/^\S+:6:17 workflow: unknown key "learningsDir" — .*"Learnings" section/),
      expect.stringMatching(/^\S+:7:21 workflow: unknown key "phaseLabelPrefix" — .*loop:<phase>/),
    ]);
  });

  it('says which section a key written at the top belongs under', () => {
    expect(issues(yaml('specDir: specs', 'critics: []', 'template-residue: warn'))).toEqual([
      `${FILE}:1:10 unknown key "specDir" (it belongs under workflow:)`,
      `${FILE}:2:10 unknown key "critics" (it belongs under reviews:)`,
      `${FILE}:3:19 unknown key "template-residue" (it belongs under rules:)`,
    ]);
  });

  it('leaves a critic entry\'s own value problems to that critic, and keeps an empty section', () => {
    const result = parseHarnessConfig(FILE, yaml('workflow:', 'reviews:', '  critics:', '    - {name: c, command: "claude -p", args: ["{prompt}"]}'));
    expect(result.ok).toBe(true);
  });
});

describe('parseHarnessConfig: rules', () => {
  it('reads a level for each rule it names', () => {
    const result = parseHarnessConfig(FILE, yaml('rules:', '  template-residue: warn', '  boundary-unaddressed: off', '  phase-mismatch: error'));
    expect(result.ok && result.config.gate.rules).toEqual({ 'template-residue': 'warn', 'boundary-unaddressed': 'off', 'phase-mismatch': 'error' });
  });

  it('refuses to configure a rule that is how the gate fails closed', () => {
    expect(issues(yaml('rules:', '  internal-error: off'))).toEqual([`${FILE}:2:19 rules: unknown key "internal-error" (internal-error cannot be configured: it is how the gate fails closed)`]);
  });
});

describe('parseHarnessConfig: the review table', () => {
  it('reads one heading or several, and outcome words that replace the built-in list of their outcome', () => {
    const one = parseHarnessConfig(FILE, yaml('reviews:', '  cyclesSection: Review rounds'));
    expect(one.ok && one.config.gate.reviewCycles.sections).toEqual(['Review rounds']);
    const many = parseHarnessConfig(FILE, yaml('reviews:', '  cyclesSection: [Review cycles, Reviews]', '  outcomes:', '    zero: [" Clean ", no issues]'));
    if (!many.ok) throw new Error(JSON.stringify(many.issues));
    expect(many.config.gate.reviewCycles.sections).toEqual(['Review cycles', 'Reviews']);
    expect(many.config.gate.reviewCycles.outcomes.zero).toEqual(['clean', 'no issues']);
    expect(many.config.gate.reviewCycles.outcomes.unavailable).toContain('unavailable');
  });

  it('refuses a word that would mean two outcomes', () => {
    expect(issues(yaml('reviews:', '  outcomes:', '    findings: [findings, skipped]'))).toEqual([
      `${FILE}:3:15 reviews.outcomes.findings: "skipped" already means unavailable; a word means one outcome (list that outcome too to move it)`,
    ]);
  });
});

describe('parseHarnessConfig: workflow.preset', () => {
  const nodes = (text: string) => {
    const result = parseHarnessConfig(FILE, text);
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('; '));
    return { preset: result.config.preset, specDir: result.config.specDir, nodes: result.config.graph.nodes.map((n) => n.id) };
  };

  it.each([
    ['kiro', '.kiro/specs', ['requirements', 'design', 'tasks', 'implementation']],
    ['spec-kit', 'specs', ['specify', 'plan', 'tasks', 'implement']],
    ['openspec', 'openspec/changes', ['proposal', 'design', 'tasks', 'apply']],
  ])('%s brings its spec root and graph', (preset, specDir, ids) => {
    expect(nodes(yaml('workflow:', `  preset: ${preset}`))).toEqual({ preset, specDir, nodes: ids });
  });

  it('the-loop is the default preset; an explicit specDir wins over the preset\'s', () => {
    expect(nodes('')).toMatchObject({ preset: 'the-loop', specDir: 'docs/specs' });
    expect(nodes(yaml('workflow:', '  preset: kiro', '  specDir: docs/kiro'))).toMatchObject({ preset: 'kiro', specDir: 'docs/kiro' });
  });

  it('a preset\'s graph is extended like the default one: a node replaced, one added', () => {
    const text = yaml(
      'workflow:',
      '  preset: kiro',
      '  graph:',
      '    extends: kiro',
      '    nodes:',
      '      - {id: design, phase: design, actor: agent, produces: design.md, requires: [requirements], gate: [{sections: [Overview]}]}',
      '      - {id: release, phase: complete, actor: agent, produces: release.md}',
      '    edges:',
      '      - {from: implementation, to: release, on: pass}',
    );
    const result = parseHarnessConfig(FILE, text);
    expect(result.ok && result.config.graph.nodes.map((n) => n.id)).toEqual(['requirements', 'design', 'tasks', 'implementation', 'release']);
    expect(result.ok && result.config.graph.byId.get('design')?.gate).toEqual([{ sections: ['Overview'] }]);
  });

  it('refuses an unknown preset at its line, naming the presets', () => {
    expect(issues(yaml('workflow:', '  preset: speckit'))).toEqual([`${FILE}:2:11 workflow.preset: must be one of the-loop, kiro, spec-kit, openspec (did you mean "spec-kit"?)`]);
  });
});
