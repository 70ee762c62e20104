import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A planted violation and the finding each gate must raise for it. */
export interface Canary {
  readonly id: string;
  readonly violation: string;
  readonly ruleId: string;
  /** The artifact the violation is planted in (the file an edit hook is told about). */
  readonly file: string;
}

export const SPEC_DIR = 'docs/specs';

// Canaries run under a small graph of agent nodes so a human gate can never mask them:
// doctor proves the wiring (hook → the-loop → reply), not the project's own graph.
const CANARY_CONFIG = `workflow:
  specDir: ${SPEC_DIR}
  graph:
    start: requirements
    nodes:
      - {id: requirements, phase: requirements-definition, actor: agent, produces: requirements.md, gate: [{locked: true}]}
      - {id: implementation, phase: implementation, actor: agent, produces: tasks.md, gate: [{tasksComplete: true}]}
    edges:
      - {from: requirements, to: implementation, on: pass}
`;

const LOCKED_REQUIREMENTS = '---\nstatus: approved\n---\n# Requirements\n\nThe canary feature greets the user.\n';
const DONE_TASKS = '# Tasks\n\n- [x] Write the greeting\n- [x] Test the greeting\n';

/** The clean work item every gate must let through: a gate that blocks everything proves nothing. */
export const CONTROL = 'canary-control';

export const CANARIES: readonly Canary[] = [
  { id: 'canary-unticked-task', violation: 'an unticked task', ruleId: 'tasks-incomplete', file: 'tasks.md' },
  { id: 'canary-draft-upstream', violation: 'a draft upstream artifact under a log claiming a later phase', ruleId: 'artifact-unlocked', file: 'requirements.md' },
  { id: 'canary-template-comment', violation: 'a pasted template comment', ruleId: 'template-residue', file: 'execution-log.md' },
];

const FILES: Record<string, Record<string, string>> = {
  [CONTROL]: { 'requirements.md': LOCKED_REQUIREMENTS, 'tasks.md': DONE_TASKS },
  'canary-unticked-task': { 'requirements.md': LOCKED_REQUIREMENTS, 'tasks.md': '# Tasks\n\n- [x] Write the greeting\n- [ ] Test the greeting\n' },
  'canary-draft-upstream': {
    'requirements.md': '---\nstatus: draft\n---\n# Requirements\n\nThe canary feature greets the user.\n',
    'tasks.md': DONE_TASKS,
    'execution-log.md': '---\nphase: implementation\n---\n# Execution log\n',
  },
  'canary-template-comment': {
    'requirements.md': LOCKED_REQUIREMENTS,
    'tasks.md': DONE_TASKS,
    'execution-log.md': '---\nphase: implementation   # not-started | requirements-definition | implementation\n---\n# Execution log\n',
  },
};

/** Write the canary repository (configuration and work items) into an empty directory. */
export async function writeCanaryRepo(dir: string, ids: readonly string[] = [CONTROL, ...CANARIES.map((c) => c.id)]): Promise<void> {
  const files: [string, string][] = [['.the-loop/harness-config.yaml', CANARY_CONFIG]];
  for (const id of ids) for (const [name, text] of Object.entries(FILES[id] ?? {})) files.push([`${SPEC_DIR}/${id}/${name}`, text]);
  for (const [path, text] of files) {
    const target = join(dir, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}
