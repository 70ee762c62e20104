// Test support: bundle a small driver script (TypeScript importing this package's sources)
// into a runnable .mjs, so crash and concurrency tests can run real writer processes.
import { build } from 'esbuild';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of a module under packages/cli/src, for a driver to import. */
export function sourcePath(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

export async function bundleDriver(name: string, source: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `the-loop-${name}-`));
  const entry = join(dir, `${name}.ts`);
  await writeFile(entry, source);
  const out = join(dir, `${name}.mjs`);
  // CommonJS dependencies (yaml) require Node's built-in modules, which an ES module reaches through createRequire.
  const banner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', conditions: ['source'], logLevel: 'error', banner: { js: banner } });
  return out;
}
