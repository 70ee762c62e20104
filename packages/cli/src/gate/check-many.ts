import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkItemResult } from '@the-loop/core';
import { failsCheck, type FailOn } from '@the-loop/hooks';
import { mapLimit } from '../workspace/map-limit.js';

/** Work items checked in order: how many, which fail, and their rendered results. */
export interface RenderedChecks {
  readonly count: number;
  readonly failing: readonly string[];
  /** The results' text in order, a chunk at a time (kept, or read back from the spool), the separator between them included. */
  texts(): Generator<string>;
}

// Work items evaluated together: enough for the reads in flight, few enough that their results go soon.
const CHUNK = 64;

/**
 * Check `ids` in order, a chunk at a time: each chunk's results are rendered (`render`, joined
 * by `separator`) once they are evaluated, then let go; the text is kept, or written to `spool`
 * (chunk `n` to `n.txt`) when there is one, so memory stays flat whatever the number of work
 * items. Beside the text only the failing ids are kept. 10,000 work items held as results and
 * written as one string took 740 MB.
 */
export async function checkInChunks(
  ids: readonly string[],
  evaluate: (id: string) => Promise<WorkItemResult>,
  failOn: FailOn,
  render: (result: WorkItemResult) => string,
  separator: string,
  spool: string | undefined,
): Promise<RenderedChecks> {
  const failing: string[] = [];
  const kept: string[] = [];
  let chunks = 0;
  for (let at = 0; at < ids.length; at += CHUNK) {
    const results = await mapLimit(ids.slice(at, at + CHUNK), 16, evaluate);
    for (const result of results) if (failsCheck(result, failOn)) failing.push(result.workItem);
    const text = results.map(render).join(separator);
    if (spool === undefined) kept.push(text);
    else writeFileSync(join(spool, `${chunks}.txt`), text);
    chunks += 1;
  }
  return {
    count: ids.length,
    failing,
    *texts() {
      for (let chunk = 0; chunk < chunks; chunk += 1) {
        const text = spool === undefined ? (kept[chunk] as string) : readFileSync(join(spool, `${chunk}.txt`), 'utf8');
        yield chunk === 0 ? text : `${separator}${text}`;
      }
    },
  };
}
