import { findSection, sectionSpan } from '../artifact/find-section.js';
import { parseArtifact } from '../artifact/parse-artifact.js';
import type { Artifact } from '../artifact/types.js';
import { EXECUTION_LOG } from '../work-item/known-artifacts.js';
import { LEARNINGS, PHASE_TRANSITIONS, RUN_USAGE, setFrontMatterValue } from './edit-log.js';

/**
 * The execution log's sections an approval does not cover: the-loop appends to the first two
 * as the work item moves (a transition, a run's usage), and Learnings is written once the work
 * is approved and done. Each is the first section of that title, as the-loop's own edits find
 * it, below the top level (a `#` heading would own every section after it).
 */
export const UNAPPROVED_LOG_SECTIONS: readonly string[] = [PHASE_TRANSITIONS, RUN_USAGE, LEARNINGS];

// What stands in for the front-matter's `phase:` value, which mirrors the recorded node.
const PHASE_STAND_IN = 'left-out-of-approvals';

/**
 * What an approval of the execution log is bound to: its text with what the-loop itself keeps,
 * or what is written after the approval, left out — the value of the front-matter's `phase:`,
 * and the sections in {@link UNAPPROVED_LOG_SECTIONS} from their heading to the next heading at
 * their level or above. Everything else is covered: every other section, every other
 * front-matter key, value and comment, a line moved into or out of a section left out. Three
 * things that carry no meaning are evened out, because the-loop's own edits change them: line
 * endings (`\n`, `\r\n` or `\r`), whitespace at the end of the file, and the front-matter's YAML
 * layout (the-loop rewrites the front-matter when it sets the phase). A front-matter that does
 * not parse is covered as it is. `artifact` is `text` parsed, when the caller parsed it already.
 */
export function approvedLogContent(text: string, artifact: Artifact = parseArtifact(EXECUTION_LOG, text)): string {
  const cut = UNAPPROVED_LOG_SECTIONS.map((title) => findSection(artifact, title))
    .filter((section) => section !== undefined && section.depth > 1)
    .map((section) => sectionSpan(artifact, section!));
  // The Markdown reader ends a line at CRLF, CR or LF, so its line numbers index these lines.
  const kept = text
    .split(/\r\n|\r|\n/)
    .filter((_, index) => !cut.some(({ start, end }) => index + 1 >= start && index + 1 < end))
    .join('\n');
  const withStandIn = setFrontMatterValue(kept, 'phase', PHASE_STAND_IN);
  return (withStandIn.ok ? withStandIn.text : kept).trimEnd();
}

/**
 * The text an approval of `artifact` is bound to; undefined for an artifact the-loop never
 * edits, whose approval covers its bytes as they are.
 */
export function approvedContent(artifact: string, text: string, parsed?: Artifact): string | undefined {
  return artifact === EXECUTION_LOG ? approvedLogContent(text, parsed) : undefined;
}
