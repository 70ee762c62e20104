import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { EVIDENCE_DIR, readEvidenceRecord, type EvidenceRecord, type RecordRead } from '@the-loop/core';
import { formatJson } from '../format/json.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { READ_LIMITS } from '../limits.js';
import { readBytesIfPresent } from '../workspace/read-file.js';
import { sha256 } from '../workspace/digest.js';
import type { Repo } from '../workspace/repo.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A record's path relative to the repository root, as findings name it. */
export function recordPath(repo: Repo, workItem: string, checkId: string): string {
  return `${repo.config.specDir}/${workItem}/${EVIDENCE_DIR}/${checkId}.json`;
}

/**
 * Read the records of the given checks. Absent is absent; anything else that is not a
 * believable record (a link, a FIFO, too large, not UTF-8, edited) is `invalid`, never skipped.
 */
export async function readRecords(repo: Repo, workItem: string, checkIds: readonly string[]): Promise<Map<string, RecordRead>> {
  const reads = new Map<string, RecordRead>();
  await Promise.all(
    checkIds.map(async (checkId) => {
      const read = await readRecord(join(repo.specRoot, workItem, EVIDENCE_DIR, `${checkId}.json`), { workItem, checkId });
      if (read) reads.set(checkId, read);
    }),
  );
  return reads;
}

async function readRecord(path: string, expected: { workItem: string; checkId: string }): Promise<RecordRead | undefined> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readBytesIfPresent(path, { maxBytes: READ_LIMITS.evidenceRecord, noLinks: true });
  } catch (error) {
    return { invalid: `it is not a record the-loop wrote: ${(error as Error).message}` };
  }
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { invalid: 'it is not valid UTF-8' };
  }
  return readEvidenceRecord(text, expected, sha256);
}

/** Write a record atomically: a reader, or a run killed mid-write, sees the old record or the new one. */
export async function writeRecord(repo: Repo, record: EvidenceRecord): Promise<string> {
  const dir = join(repo.specRoot, record.workItem, EVIDENCE_DIR);
  await fs.mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, `${record.check.id}.json`), formatJson(record));
  return recordPath(repo, record.workItem, record.check.id);
}
