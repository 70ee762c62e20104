import { evaluateWorkItem, type WorkItemResult } from '@the-loop/core';
import { artifactNames, readWorkItem } from './read-work-item.js';
import type { Repo } from './repo.js';

export interface EvaluateOptions {
  /** Ignore recorded graph state and derive everything from the artifacts. */
  readonly recompute?: boolean;
}

/** Read one work item from disk and evaluate it: the one path every command and hook uses. */
export async function evaluateFromDisk(repo: Repo, id: string, _options: EvaluateOptions = {}): Promise<WorkItemResult> {
  const input = await readWorkItem(repo, id, artifactNames(repo.config.graph));
  return evaluateWorkItem(repo.config.graph, input);
}
