import type { Diagnostic, Position } from '../diagnostic.js';

/** A parsed front-matter block: its data and where each top-level key's value sits. */
export interface FrontMatter {
  readonly data: Readonly<Record<string, unknown>>;
  readonly positions: Readonly<Record<string, Position>>;
  readonly position: Position;
  /** The block's YAML as written, and the file line its first line is on: for positions below the top level. */
  readonly yaml: string;
  readonly firstLine: number;
}

/**
 * A paragraph or a list item's first paragraph, outside code and quotes: the unit a line of
 * prose such as an acceptance criterion is read from.
 */
export interface Statement {
  /** Plain text, inline markup removed, line breaks kept. */
  readonly text: string;
  /** The text of a leading bold or code span (`**AC1**`, `` `AC1` ``), when the statement starts with one. */
  readonly lead: string | undefined;
  /** The title of the nearest heading above it. */
  readonly section: string | undefined;
  /** 0 for a paragraph, 1 for an item of a top-level list, 2 for an item nested in it, … */
  readonly listDepth: number;
  /** Where it starts; for a list item, where the item's marker is. */
  readonly position: Position;
}

/** A heading and the content it owns (up to the next heading of the same or higher level). */
export interface Section {
  readonly title: string;
  readonly depth: number;
  readonly position: Position;
  /** True when the section holds nothing but whitespace, comments, placeholders or guidance. */
  readonly empty: boolean;
  /** The section's own top-level list items. */
  readonly items: readonly ListEntry[];
}

/** A list item of a section as plain data: what the boundary rule reads to find the name it gives. */
export interface ListEntry {
  /** The item's first paragraph as plain text, line breaks kept. */
  readonly text: string;
  /** The bold or code span the paragraph opens with (its lead-in), when it opens with one. */
  readonly lead?: string;
  /** The first bold or code span anywhere in the paragraph. */
  readonly marked?: string;
  /** The items of lists nested directly in this one (one level: deeper lists are detail). */
  readonly children: readonly ListEntry[];
  /** The title of the subsection the item's list sits in, when it sits in one. */
  readonly under?: string;
  readonly position: Position;
}

/** A list item carrying a task marker (`[ ]`, `[x]`, `[~]`, …). */
export interface Task {
  readonly text: string;
  /** Only `x` and `X` mark a task done; any other marker is not done. */
  readonly done: boolean;
  readonly marker: string;
  /** Kiro's `- [ ]*`: a task the work does not require (often tests); it never blocks a gate. */
  readonly optional: boolean;
  readonly position: Position;
}

/** A row of a table: cells as plain text, in header order. */
export interface TableRow {
  readonly cells: readonly string[];
  readonly position: Position;
}

/** A GFM table and the heading it sits under. */
export interface Table {
  readonly section: string | undefined;
  readonly header: readonly string[];
  readonly rows: readonly TableRow[];
  readonly position: Position;
}

/** Everything the gates read from one artifact file. */
export interface Artifact extends ArtifactFacts {
  readonly path: string;
  readonly text: string;
}

/**
 * What parsing finds in a file's contents, independent of where the file is: the same bytes
 * always give the same facts, so they can be cached by the bytes' digest. Diagnostics name
 * the file once the facts are bound to a path.
 */
export interface ArtifactFacts {
  readonly lineCount: number;
  /** True when the file holds only whitespace. */
  readonly empty: boolean;
  readonly frontMatter: FrontMatter | undefined;
  readonly sections: readonly Section[];
  readonly tasks: readonly Task[];
  readonly tables: readonly Table[];
  readonly statements: readonly Statement[];
  /** Problems found while parsing: invalid front-matter, template residue. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A part of facts read when first asked for: the statements, the tasks, or one section's items. */
export type FactsPart = 'statements' | 'tasks' | Section;
