import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { MarkdownTree } from '../artifact/markdown-tree.js';
import { remarkGfmParts } from './remark-gfm-parts.js';

const processor = unified().use(remarkParse).use(remarkGfmParts).use(remarkFrontmatter, ['yaml']);

/**
 * The reference reading of a document: remark-parse with front-matter, GFM tables and task
 * list items. Too slow for every hook turn (about 1 MB/s, and super-linear on some shapes), it
 * is the oracle the fast tree is tested against.
 */
export function referenceTree(text: string): MarkdownTree {
  return { root: processor.parse(text) as Root, truncatedAt: undefined };
}
