import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import type { Processor } from 'unified';

/**
 * The two parts of GitHub-flavoured Markdown the gates read — tables and task list items —
 * without autolinks, footnotes, strikethrough or the serialiser that remark-gfm also brings.
 * Every CLI start-up and every hook turn pays for what is loaded, so only these are.
 */
export function remarkGfmParts(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfmTable(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown());
}
