// The types of bench-corpus.mjs, for the tests that read its work items.

/** The four artifacts of one generated work item, by file name, together about `bytes` long. */
export function workItemFiles(id: string, index: number, bytes?: number): Record<string, string>;

/** Write `count` generated work items of about `bytes` each under `dir/docs/specs`; returns `dir`. */
export function generateCorpus(dir: string, count: number, options?: { bytes?: number; ids?: readonly string[] }): string;
