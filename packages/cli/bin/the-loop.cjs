#!/usr/bin/env node
'use strict';
// Thin launcher. The CLI is one bundled CommonJS file compiled through V8's code cache: the
// cache, written at build time by representative runs, lets start-up skip parsing and
// compiling most of the bundle. A cache from another Node version is rejected by V8 and the
// bundle simply compiles as usual; that first run then writes a cache of its own.
const { closeSync, fstatSync, openSync, readSync, writeFileSync, renameSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

// A run over a set of work items (a report, a baseline, `check --all` or `--changed-from`)
// ends, for a few dozen or hundred items, before V8's optimising compiler repays its work: on two
// cores, compiling the Markdown reader's largest functions took longer than reading a whole
// repository with them unoptimised. Such a run has functions optimised later, the largest
// latest, and small ones no sooner than the rest, and a long one still runs optimised code. A
// hook or a check of one item is better off with V8's defaults (decisions 174 and 175).
// Such a run also keeps V8's young generation at the size it starts with rather than doubling it
// as objects survive it: where a fresh page costs the kernel a fault of 10 to 15 µs, as on the
// virtual machines CI and agents run on, touching the pages of a larger young generation cost a
// short run more than the extra scavenges of a small one (decision 183). Measured on Node 20's V8
// only: other versions keep the defaults. V8 accepts a code cache only under the flags it was
// written with, so each kind of run has its own cache, and the flags are set before the bundle is
// compiled (V8 flags set later than that cost a run far more than they give). Only a hint: a run
// taken for the other kind is as correct, and a little slower.
const args = process.argv.slice(2);
const manyItems =
  args[0] === 'report' ||
  args[0] === 'baseline' ||
  (args[0] === 'check' && args.some((arg) => arg === '--all' || arg === '--changed-from' || arg.startsWith('--changed-from=')));
if (manyItems && process.versions.v8.startsWith('11.')) {
  setV8Flags('--ticks-before-optimization=25 --bytecode-size-allowance-per-tick=50 --max-bytecode-size-for-early-opt=0 --semi-space-growth-factor=1');
}
const bundle = join(__dirname, '..', 'dist', 'the-loop.cjs');
// A run under options of its own (NODE_OPTIONS=--max-old-space-size=…, or a flag before this
// file) may set V8 flags the build's cache was not written under, and V8 rejects it then. Such a
// run keeps a cache of its own, named for its options, rather than overwrite the build's: runs
// with and without the options would each rewrite it in turn, every rewrite holding only what its
// own run compiled. Options that change no flag of V8's still use the build's cache (decision 177).
// V8 accepts a code cache written by its own version under its own flags, and does not ask which
// Node wrote it: Node 20.19 and 20.20 share V8 11.3.244.8, and 20.19 crashed on every start with
// 20.20's cache. So each cache is named for the Node build that reads and writes it: the versions
// of Node, of V8 with Node's patch level and of every library in it (a distribution's shared
// OpenSSL or ICU shows there), and the length of its configuration (hashing its 13 KB took a run
// 0.7 ms). Another build has none and writes its own (decision 192).
const node = fingerprint(`${process.arch} ${JSON.stringify(process.versions)} ${JSON.stringify(process.config).length}`);
const kind = `${bundle}${manyItems ? '.many-items' : ''}.${node}`;
const shipped = `${kind}.cache`;
const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
const cacheFile = options === '' ? shipped : `${kind}.${fingerprint(options)}.cache`;
const bundleFile = openFile(bundle);
if (bundleFile === undefined) {
  process.stderr.write('the-loop: the CLI is not built yet; run `pnpm build` at the repository root.\n');
  process.exit(2);
}
const ownFile = openFile(cacheFile);
const cacheFileRead = ownFile ?? (cacheFile === shipped ? undefined : openFile(shipped));
// The bundle and then its cache are read into one buffer, the bundle's text copied out of it
// before the cache is read over it: a second buffer of most of a megabyte is fresh memory, a page
// fault for every 4 KB of it, and a start-up paid for them (decision 183). ASCII, as the build
// leaves it: the text is read as Latin-1, the bytes copied without UTF-8's checks.
const memory = Buffer.allocUnsafe(Math.max(bundleFile.size, cacheFileRead?.size ?? 0));
const source = memory.toString('latin1', 0, readWhole(bundleFile, memory));
const cachedData = cacheFileRead === undefined ? undefined : memory.subarray(0, readWhole(cacheFileRead, memory));
const ownCache = ownFile === undefined ? undefined : cachedData;
// The bundle's text is one function expression, the module function (scripts/cli-bundle.mjs).
// It requires only Node's own modules (the build checks), which this file's `require` gives as
// well as one made for the bundle's path, without loading `node:module` for it.
const script = new Script(source, { filename: bundle, cachedData });
const bundled = { exports: {} };
script.runInThisContext().call(bundled.exports, bundled.exports, require, bundled, bundle, join(bundle, '..'));
// The report's worker threads read the cache this run read, or the one it writes (scripts/cli-bundle.mjs).
bundled.exports.useCodeCache(ownCache === undefined && cachedData !== undefined && !script.cachedDataRejected ? shipped : cacheFile);
const done = bundled.exports.main(args);
// The build sets this to the further commands (a JSON list of argument lists) whose functions the
// cache should hold too, run one after the other before it is written.
const cacheRuns = process.env.THE_LOOP_WRITE_CODE_CACHE;
let cached;
if (cacheRuns) {
  cached = JSON.parse(cacheRuns)
    .reduce((previous, argv) => previous.then(() => bundled.exports.main(argv)), done)
    .then(() => {
      writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
      renameSync(`${cacheFile}.tmp`, cacheFile);
      // And those of the libraries beside the bundle these runs loaded.
      bundled.exports.writeChunkCaches(true);
    });
} else {
  // An install on another Node version than the build's (or with no cache) writes one after its
  // first run, so later start-ups skip compiling what this one compiled, and so does each library
  // beside the bundle it loaded without one. Best effort, and atomic: a read-only install just
  // runs without one, and concurrent hooks never see half a file.
  const ownWritten = cachedData === undefined || script.cachedDataRejected;
  cached = done.then(() => {
    // A run that started worker threads writes none: see `writesCodeCaches` (bundle-dir.ts).
    if (!bundled.exports.writesCodeCaches()) return;
    if (ownWritten) {
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        rmSync(temp, { force: true });
      }
    }
    bundled.exports.writeChunkCaches(false);
  }, () => {});
}
Promise.all([done, cached]).then(([code]) =>
  // A command that has answered is finished: nothing it left running (a lock wait, a hook's
  // evaluation past its deadline) may hold the process. Exit once its output is all written.
  bundled.exports.outputWritten().then(() => process.exit(code)),
);

// V8's flags, set through the binding `node:v8` is built on: the module itself loads Node's stream
// modules (its heap snapshots are streams), about 2 ms of a run that never uses one (decision
// 176). Node 20 warns that reaching a binding is deprecated, a warning for code that depends on
// it; this is only a shortcut, so the one call is made quietly, and `node:v8` is the way when the
// binding is gone.
function setV8Flags(flags) {
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const binding = process.binding('v8');
    if (typeof binding.setFlagsFromString === 'function') return binding.setFlagsFromString(flags);
  } catch {
    // No such binding: the module below.
  } finally {
    process.noDeprecation = quiet;
  }
  return require('node:v8').setFlagsFromString(flags);
}

// A file opened to be read whole, and its size; undefined when it cannot be.
function openFile(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
    return { fd, size: fstatSync(fd).size };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

// Read an opened file into `memory` (as large as its size) and close it; how many bytes it gave.
// A file that changed size since its `fstat` is read as far as it goes, within the buffer: a
// cache cut short is one V8 rejects, and a bundle cut short one that fails to compile.
function readWhole({ fd, size }, memory) {
  let at = 0;
  try {
    for (let got = 1; at < size && got > 0; at += got) got = readSync(fd, memory, at, size - at, null);
  } catch {
    // As far as it could be read.
  } finally {
    closeSync(fd);
  }
  return at;
}

// A short name for a Node build or a run's options (FNV-1a, 32 bits: two that differ share one
// by a chance in four billion).
function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
