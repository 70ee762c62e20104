// Worker thread for `report` over many work items: evaluates the chunks of ids it is given, in
// order, writing their items to each chunk's file and posting back only the totals. Each worker
// opens the repository itself, so only ids, file names and totals cross threads.
import { parentPort, workerData } from 'node:worker_threads';
import { artifactCache } from './cache/artifact-cache.js';
import { evaluateChunk, type ChunkTask } from './gate/evaluate-many.js';
import { loadRepo } from './workspace/repo.js';

interface Setup {
  readonly root: string;
  /** Whether the report reads through the artifact cache. */
  readonly cache: boolean;
}

async function serve(setup: Setup): Promise<void> {
  const opened = await loadRepo(setup.root);
  const repo = setup.cache ? { ...opened, cache: artifactCache(setup.root) } : opened;
  const port = parentPort;
  if (!port) return;
  port.on('message', (task: ChunkTask | { done: true }) => {
    if ('done' in task) {
      port.close();
      return;
    }
    void evaluateChunk(repo, task).then((totals) => port.postMessage({ chunk: task.chunk, totals }));
  });
  port.postMessage({ ready: true });
}

void serve(workerData as Setup);
