import type { Diagnostic, Position } from '../diagnostic.js';

/** A parsed front-matter block: its data and where each top-level key's value sits. */
export interface FrontMatter {
  readonly data: Readonly<Record<string, unknown>>;
  readonly positions: Readonly<Record<string, Position>>;
  readonly position: Position;
}

/** A heading and the content it owns (up to the next heading of the same or higher level). */
export interface Section {
  readonly title: string;
  readonly depth: number;
  readonly position: Position;
  /** True when the section holds nothing but whitespace, comments, placeholders or guidance. */
  readonly empty: boolean;
  /** The section's content as plain text (headings of subsections included). */
  readonly text: string;
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
export interface Artifact {
  readonly path: string;
  readonly text: string;
  readonly lineCount: number;
  /** True when the file holds only whitespace. */
  readonly empty: boolean;
  readonly frontMatter: FrontMatter | undefined;
  readonly sections: readonly Section[];
  readonly tasks: readonly Task[];
  readonly tables: readonly Table[];
  /** Problems found while parsing: invalid front-matter, template residue. */
  readonly diagnostics: readonly Diagnostic[];
}
