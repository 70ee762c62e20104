import { basename, join } from 'node:path';
import { MAX_YAML_DEPTH, YAML_READER } from '@the-loop/core';
import { LOCAL_DIR } from '../state/local-state.js';
import type { ConfigCache } from '../workspace/repo.js';
import { bucketStore } from './buckets.js';

/** Where the values of the repository's configuration files are kept, beside the other caches. */
export const CONFIG_CACHE_DIR = `${LOCAL_DIR}/cache/config`;

// The form of an entry; a change makes every entry another's.
const ENTRY_FORMAT = 1;
// One entry a configuration file (a few kilobytes: its text and its value). A file too large for
// an entry (over about a third of it) is parsed every time.
const BUCKET = 'yaml';
const BUCKET_BYTES = 4 * 1024 * 1024;
const ENTRY_BYTES = 1024 * 1024;
const OWN_FILE = /^(?:[\w.-]+\.yaml\.json|\.[\w.-]+\.yaml\.json\.\d+\.[0-9a-f]+\.tmp)$/;

/**
 * The values of `.the-loop/harness-config.yaml` and `collaborators.yaml` as a run parsed them,
 * kept so that the commands that run on every agent turn (the harness hooks, `check <id>`) do not
 * load the YAML library and parse the same text again: about 4 ms of each run in a configured
 * repository. An entry is found by the file's name and used only when the text it holds is the
 * text read now, compared whole, and the reader that parsed it is this one; so it never changes a
 * result. A value the configuration's checks refuse stands for nothing: the file is parsed afresh
 * (`loadRepo`), so a problem named is always in the file.
 * CI and `--no-cache` keep none, and trust nothing kept: an agent that could forge an entry could
 * as well edit the file, which CI reads afresh.
 */
export function configCache(root: string): ConfigCache {
  const store = bucketStore(root, join(root, CONFIG_CACHE_DIR), { ownFile: OWN_FILE, bucketBytes: BUCKET_BYTES, entryBytes: ENTRY_BYTES });
  const entryName = (file: string): string => `${basename(file)}.json`;
  return {
    known(file, text) {
      const bytes = store.read(BUCKET, entryName(file));
      if (bytes === undefined) return undefined;
      try {
        const entry = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
        const same = entry['format'] === ENTRY_FORMAT && entry['reader'] === YAML_READER && entry['file'] === file && entry['text'] === text && 'value' in entry;
        // No file the reader parses nests deeper, so a value that does was not kept by a run.
        return same && nestedWithin(entry['value'], MAX_YAML_DEPTH) ? { value: entry['value'] } : undefined;
      } catch {
        return undefined;
      }
    },
    async keep(file, text, value) {
      if (!jsonExact(value, new Set())) return;
      const entry = { format: ENTRY_FORMAT, reader: YAML_READER, file, text, value };
      await store.write(BUCKET, entryName(file), Buffer.from(JSON.stringify(entry), 'utf8')).catch(() => undefined);
    },
  };
}

// Whether JSON gives `value` back exactly: strings, finite numbers but -0, booleans and null in
// plain arrays and objects, none reached again inside itself (a cycle made with YAML's aliases).
// YAML's `.inf` or `.nan` would come back as null, so such a file is parsed every time.
function jsonExact(value: unknown, within: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || within.has(value)) return false;
  within.add(value);
  const exact = Array.isArray(value)
    ? Object.getPrototypeOf(value) === Array.prototype && Object.keys(value).length === value.length && value.every((item) => jsonExact(item, within))
    : Object.getPrototypeOf(value) === Object.prototype && Object.getOwnPropertySymbols(value).length === 0 && Object.values(value).every((item) => jsonExact(item, within));
  within.delete(value);
  return exact;
}

// Whether `value` nests no more than `depth` arrays and objects deep.
function nestedWithin(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return depth > 0 && Object.values(value).every((item) => nestedWithin(item, depth - 1));
}
