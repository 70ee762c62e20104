// Packs the publishable packages as npm tarballs: @the-loop/cli (the bundled CLI, installable
// with no runtime dependency) and @the-loop/core (the pure library: ES modules and their type
// declarations). Build first (`pnpm build`; `pnpm pack:all` does both). pnpm pack is what a
// publish runs: it rewrites workspace versions and applies each package's publishConfig.
// Usage: node scripts/pack.mjs [DESTINATION]   (default: packs/ at the repository root)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(process.argv[2] ?? `${root}packs`);
const PACKAGES = ['cli', 'core'];

for (const name of PACKAGES) {
  if (!existsSync(`${root}packages/${name}/dist`)) {
    console.error(`packages/${name}/dist is missing: build first (node scripts/build.mjs)`);
    process.exit(1);
  }
}
// tsc -b keeps the output of a source file that no longer exists, and does not notice an output
// deleted by hand: core's dist/ is cut to exactly the outputs of its current sources, and compiled
// afresh when one is missing, so what is published is what the sources compile to. The
// incremental build is then all that runs after a build (a fresh compile takes seconds).
const coreConfig = `${root}packages/core/tsconfig.build.json`;
const buildInfo = `${root}packages/core/tsconfig.build.tsbuildinfo`;
if (!coreOutputsMatchSources()) rmSync(buildInfo, { force: true });
const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', coreConfig], { cwd: root, encoding: 'utf8' });
if (tsc.status !== 0) {
  console.error(`compiling packages/core failed:\n${tsc.stdout}${tsc.stderr}`);
  process.exit(tsc.status ?? 1);
}
mkdirSync(destination, { recursive: true });
// Under `pnpm run`, npm_execpath is pnpm itself; otherwise npx fetches the pinned version.
const execpath = process.env.npm_execpath ?? '';
const pnpm = /pnpm\.c?js$/.test(execpath) ? [process.execPath, execpath] : ['npx', '-y', 'pnpm@10.34.9'];
// Each package's tarball, named as pnpm names it; one left from an earlier pack is removed first,
// so that only this pack's can be found there afterwards.
const tarballs = PACKAGES.map((name) => {
  const manifest = JSON.parse(readFileSync(`${root}packages/${name}/package.json`, 'utf8'));
  return `${destination}/${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
});
for (const tarball of tarballs) rmSync(tarball, { force: true });
// One pnpm start for both packages (each start loads pnpm, through npx a second or two).
const [command, ...args] = pnpm;
const filters = PACKAGES.flatMap((name) => ['--filter', `./packages/${name}`]);
const run = spawnSync(command, [...args, ...filters, 'pack', '--pack-destination', destination], { cwd: root, encoding: 'utf8' });
if (run.status !== 0) {
  console.error(`pnpm pack failed:\n${run.stdout}${run.stderr}`);
  process.exit(run.status ?? 1);
}
for (const tarball of tarballs) {
  if (!existsSync(tarball)) {
    console.error(`pnpm pack wrote no ${tarball}:\n${run.stdout}${run.stderr}`);
    process.exit(1);
  }
  console.log(tarball);
}

// Deletes every file in core's dist/ that no current source compiles to; false when a source's
// output is missing.
function coreOutputsMatchSources() {
  const parsed = ts.getParsedCommandLineOfConfigFile(coreConfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed || parsed.errors.length > 0) return false;
  const expected = new Set(parsed.fileNames.flatMap((file) => ts.getOutputFileNames(parsed, file, false)).map((file) => resolve(file)));
  const dist = `${root}packages/core/dist`;
  const present = existsSync(dist) ? readdirSync(dist, { recursive: true }).map((file) => resolve(dist, file)).filter((file) => statSync(file).isFile()) : [];
  for (const file of present) if (!expected.has(file)) rmSync(file);
  const kept = new Set(present);
  return [...expected].every((file) => kept.has(file));
}
