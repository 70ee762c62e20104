/** Artifact file names a work item keeps, in lifecycle order. The report counts each one. */
export const KNOWN_ARTIFACTS = [
  'brainstorm.md',
  'requirements.md',
  'bugfix.md',
  'design.md',
  'testing-plan.md',
  'tasks.md',
  'execution-log.md',
] as const;

/** The task list `tasksComplete` reads when a node produces no artifact of its own. */
export const TASKS_FILE = 'tasks.md';

/** The execution log: the resume anchor whose `phase:` mirrors the lifecycle. */
export const EXECUTION_LOG = 'execution-log.md';

/** Phase values a log may hold before any node has started. */
export const PRE_START_PHASES: ReadonlySet<string> = new Set(['not-started']);
