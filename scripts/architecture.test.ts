import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { cliFolderEdges, packageEdges, updatedDoc } from './architecture-graph.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOC = readFileSync(`${root}docs/architecture.md`, 'utf8');

function hasCycle(edges: readonly (readonly string[])[]): boolean {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from!, [...(next.get(from!) ?? []), to!]);
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string): boolean => {
    if (state.get(node) === 'open') return true;
    if (state.get(node) === 'done') return false;
    state.set(node, 'open');
    const found = (next.get(node) ?? []).some(visit);
    state.set(node, 'done');
    return found;
  };
  return [...next.keys()].some(visit);
}

describe('docs/architecture.md', () => {
  it('shows the dependencies the code has now (run `node scripts/architecture-graph.mjs` after changing them)', () => {
    expect(updatedDoc(DOC)).toBe(DOC);
  });

  it('names only files and folders that exist', () => {
    const paths = [...DOC.matchAll(/`((?:core|cli|hooks|adapters-[a-z]+)\/src\/[^`*<\s]+)`/g)].map((m) => `packages/${m[1]}`);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !existsSync(`${root}${path}`))).toEqual([]);
  });

  it('draws pictures Mermaid reads', async () => {
    const dom = new JSDOM('');
    Object.assign(globalThis, { window: dom.window, document: dom.window.document });
    const { default: mermaid } = await import('mermaid');
    const blocks = [...DOC.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    for (const block of blocks) await expect(mermaid.parse(block)).resolves.toBeTruthy();
  });
});

describe('the layering', () => {
  it('keeps core free of our other packages, and each adapter and the hook decisions on core alone', () => {
    const edges = packageEdges();
    const dependsOn = (folder: string) => edges.filter(([from]) => from === folder).map(([, to]) => to);
    expect(dependsOn('core')).toEqual([]);
    for (const folder of ['adapters-claude', 'adapters-cursor', 'hooks']) expect(dependsOn(folder)).toEqual(['core']);
  });

  it('has the folders of packages/cli/src depend one way: no cycle between them', () => {
    expect(hasCycle(cliFolderEdges())).toBe(false);
  });
});
