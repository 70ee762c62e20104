// Builds the CLI as one minified ESM bundle (start-up time is a budget) with lazily loaded
// command chunks, and the library packages' dist/ (JavaScript + declarations) for other tools.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliDist = `${root}packages/cli/dist`;
await rm(cliDist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'packages/cli/src/main.ts', 'report-worker': 'packages/cli/src/report-worker.ts' },
  outdir: cliDist,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  conditions: ['source'],
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __theLoopRequire } from 'node:module'; const require = __theLoopRequire(import.meta.url);" },
});

const libraries = ['core', 'adapters-claude', 'adapters-cursor', 'hooks'];
const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', ...libraries.map((p) => `packages/${p}/tsconfig.build.json`)], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
