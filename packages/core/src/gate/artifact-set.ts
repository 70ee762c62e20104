import { artifactOf } from '../artifact/parse-artifact.js';
import type { Artifact } from '../artifact/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { emptyArtifact } from '../rules/artifact-empty.js';
import { unreadableArtifact } from '../rules/artifact-unreadable.js';
import type { WorkItemInput } from './inputs.js';

type Read = { artifact: Artifact } | { problem: Diagnostic };

/** The work item's files, parsed once each, on first use. */
export class ArtifactSet {
  private readonly cache = new Map<string, Read>();
  private readonly found = new Map<string, { name: string; artifact: Artifact } | undefined>();
  constructor(
    private readonly input: WorkItemInput,
    private readonly groups: readonly (readonly string[])[],
  ) {}

  has(name: string): boolean {
    return this.input.files.has(name);
  }

  pathOf(name: string): string {
    return `${this.input.dir}/${name}`;
  }

  get(name: string): Read {
    let read = this.cache.get(name);
    if (read) return read;
    const source = this.input.files.get(name);
    if (source === undefined || 'unreadable' in source) {
      read = { problem: unreadableArtifact(name, this.pathOf(name), source?.unreadable) };
    } else {
      const artifact = artifactOf(this.pathOf(name), source);
      const problem = emptyArtifact(name, artifact);
      read = problem ? { problem } : { artifact };
    }
    this.cache.set(name, read);
    return read;
  }

  lookup(name: string): { name: string; artifact: Artifact } | undefined {
    // Asked for the same names by several predicates of several nodes: found once each.
    if (this.found.has(name)) return this.found.get(name);
    let found: { name: string; artifact: Artifact } | undefined;
    // An upstream named as `requirements.md` is satisfied by its declared alternative (`bugfix.md`).
    const candidates = [name, ...(this.groups.find((group) => group.includes(name)) ?? []).filter((n) => n !== name)];
    for (const candidate of candidates) {
      if (!this.has(candidate)) continue;
      const read = this.get(candidate);
      if ('artifact' in read) {
        found = { name: candidate, artifact: read.artifact };
        break;
      }
    }
    this.found.set(name, found);
    return found;
  }

  /** Each present file's front-matter `status`. */
  statuses(): Record<string, { status: string | null }> {
    const out: Record<string, { status: string | null }> = {};
    for (const name of [...this.input.files.keys()].sort()) {
      const read = this.get(name);
      const status = 'artifact' in read ? read.artifact.frontMatter?.data['status'] : undefined;
      out[name] = { status: status === undefined || status === null ? null : String(status) };
    }
    return out;
  }

  /** File-level findings of every present file: unreadable, empty, invalid front-matter, template residue. */
  parseFindings(): [string, Diagnostic[]][] {
    return [...this.input.files.keys()]
      .sort()
      .map((name): [string, Diagnostic[]] => {
        const read = this.get(name);
        return [name, 'artifact' in read ? [...read.artifact.diagnostics] : [read.problem]];
      })
      .filter(([, found]) => found.length > 0);
  }
}
