// How the CLI is bundled, shared by the build and the profiler so both run the same code.
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Build the CLI into `outdir`: the bundle, the libraries some runs never use beside it (one file
 * each, `CHUNKS`), and the entry of the report's worker threads. Each file is ASCII and, minified
 * as it ships, requires only Node's own modules, or the build stops.
 */
export async function buildCli(root, outdir, { minify }) {
  const minified = minify ? { minify: true, sourcemap: false, legalComments: 'none' } : {};
  await build({ ...cliBundleOptions(root, outdir), ...minified });
  for (const [chunk, { entry, from }] of Object.entries(CHUNKS)) {
    await build({
      ...cliBundleOptions(root, outdir),
      entryPoints: undefined,
      stdin: { contents: entry, resolveDir: join(root, from), sourcefile: `${chunk}-chunk.js`, loader: 'js' },
      outfile: join(outdir, chunkFile(chunk)),
      outdir: undefined,
      plugins: [plainFieldsInMarkdownIt, entityTrieOnFirstUse],
      ...minified,
    });
  }
  for (const file of ['the-loop.cjs', ...Object.keys(CHUNKS).map(chunkFile)]) {
    await asciiOnly(join(outdir, file));
    // What ships is minified: unminified, a comment that mentions a `require` reads as one.
    if (minify) await requiresOnlyBuiltins(join(outdir, file));
  }
  await writeWorkerEntry(outdir);
}

// Libraries a run may never call, each built into a file of its own beside the bundle: a run
// reads and compiles one only when it first calls it (`loadChunk`, packages/cli/src/bundle-dir.ts),
// through a V8 code cache of its own, and a run that needs none of them reads a bundle 40 % smaller
// (decision 183). A run over work items of simple Markdown never parses it with markdown-it, a
// repository with no configuration file reads no YAML, and a baseline's lines are read as JSON
// with positions only when it grew. Each entry exports what the bundle's stand-ins for the
// package (`from`, the workspace package that depends on it) call.
export const CHUNKS = {
  markdown: { packages: ['markdown-it'], from: 'packages/core', entry: "export { default } from 'markdown-it';\n" },
  yaml: { packages: ['yaml'], from: 'packages/core', entry: "export { isMap, isPair, isScalar, isSeq, parseDocument, YAMLParseError } from 'yaml';\n" },
  json: { packages: ['@humanwhocodes/momoa'], from: 'packages/core', entry: "export { parse } from '@humanwhocodes/momoa';\n" },
  glob: { packages: ['picomatch/posix.js'], from: 'packages/cli', entry: "module.exports = require('picomatch/posix.js');\n" },
};

/** The file a chunk is built into, beside the bundle. */
export function chunkFile(chunk) {
  return `the-loop-${chunk}.cjs`;
}

/** esbuild options for the CLI bundle, written to `outdir`. */
export function cliBundleOptions(root, outdir) {
  return {
    absWorkingDir: root,
    entryPoints: { 'the-loop': 'packages/cli/src/main.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Node 20 reads every Unicode property escape. esbuild turns some regular expression literals
    // holding them into `new RegExp(…)` calls, which it cannot drop when nothing uses them:
    // valibot's emoji pattern was built on every start-up, about 0.1 ms.
    supported: { 'regexp-unicode-property-escapes': true },
    conditions: ['source'],
    logLevel: 'warning',
    plugins: [plainFieldsInMarkdownIt, entityTrieOnFirstUse, packagesOnFirstUse(root)],
    // The bundle is one function expression, the CommonJS module function Node would wrap it
    // in, so the launchers compile the file's text as it is read: a wrapper joined to it made V8
    // copy the whole source into one string first, about a millisecond of every start-up. Loaded
    // as a module (`require`), the file calls that function with the module's own arguments.
    banner: { js: `(function (load) { if (typeof module === 'object' && module !== null) load(exports, require, module, __filename, __dirname); return load; })(function (exports, require, module, __filename, __dirname) {` },
    footer: { js: '\n});' },
  };
}

// `report`'s worker threads run the CLI's own bundle through its code cache, as the launcher
// does (bin/the-loop.cjs): a bundle of their own, without a cache, cost each worker 50 to 100 ms
// compiling it, and then every parser function again on its first call. Written beside the bundle.
const WORKER_ENTRY = `'use strict';
// Entry of the report's worker threads: the CLI bundle beside it, through the V8 code cache of
// runs over many work items, whose V8 flags they share (bin/the-loop.cjs).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const { workerData } = require('node:worker_threads');

const bundle = join(__dirname, 'the-loop.cjs');
let cachedData;
try {
  // The cache the launcher's run read (or is writing), named for the Node build and the run's
  // options; none when the bundle was loaded some other way.
  cachedData = workerData.codeCache === undefined ? undefined : readFileSync(workerData.codeCache);
} catch {
  cachedData = undefined;
}
const script = new Script(readFileSync(bundle, 'latin1'), { filename: bundle, cachedData });
const bundled = { exports: {} };
script.runInThisContext().call(bundled.exports, bundled.exports, require, bundled, bundle, __dirname);
// The libraries beside the bundle compile through caches of the same kind.
if (workerData.codeCache !== undefined) bundled.exports.useCodeCache(workerData.codeCache);
bundled.exports.reportWorker();
`;

/** Write the entry of `report`'s worker threads into `outdir`, beside the CLI bundle. */
export async function writeWorkerEntry(outdir) {
  await writeFile(join(outdir, 'report-worker.cjs'), WORKER_ENTRY);
}

/**
 * Stop the build unless every `require` in the bundle names one of Node's own modules by a
 * literal: the launchers give the bundle their own `require`, which resolves nothing else from
 * the bundle's folder.
 */
export async function requiresOnlyBuiltins(file) {
  const source = await readFile(file, 'utf8');
  const calls = [...source.matchAll(/\brequire\(([^)]*)\)/g)].map((match) => match[1]);
  const other = calls.filter((argument) => !/^"[^"]+"$/.test(argument) || !isBuiltin(argument.slice(1, -1)));
  if (other.length > 0) throw new Error(`the CLI bundle requires more than Node's own modules: ${[...new Set(other)].join(', ')}`);
}

// esbuild writes strings, templates and identifiers in ASCII, but leaves regular-expression
// literals as written, and a few dashes there made the whole bundle a two-byte string: V8 reads
// and scans a one-byte source faster, and the launchers read an ASCII file as Latin-1, which
// copies its bytes without checking them as UTF-8. Each such character becomes its `\u` escape, the same
// character in a regular expression, unless a backslash comes before it (an identity escape,
// which the escape would turn into a literal backslash): the build stops then.
export async function asciiOnly(file) {
  const source = await readFile(file, 'utf8');
  if (/\\[^\0-\x7f]/.test(source)) throw new Error('the CLI bundle escapes a non-ASCII character in a regular expression: write it as its \\u escape in the source');
  await writeFile(file, source.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

// markdown-it's build turns each class field into a call of a `_defineProperty` helper, and every
// token and every inline parse creates a dozen fields that way: about a fifth of the reader's
// time. On a fresh instance whose class has no setters, defining an own data property and
// assigning it are the same, so the bundle assigns. Fewer than the expected number of such
// fields means markdown-it's build changed: the build stops, rather than lose the speed unseen.
const FIELD = /_defineProperty\(\s*this,\s*(?:\/\*\*[\s\S]*?\*\/\s*)?"(\w+)",\s*(?:\/\*\*[\s\S]*?\*\/\s*)?([^\n]*?)\s*\n?\t*\);/g;
const EXPECTED_FIELDS = 50;

const plainFieldsInMarkdownIt = {
  name: 'plain-fields-in-markdown-it',
  setup(build) {
    build.onLoad({ filter: /[\\/]markdown-it[\\/]dist[\\/]markdown-it\.mjs$/ }, async ({ path }) => {
      let fields = 0;
      const contents = (await readFile(path, 'utf8')).replace(FIELD, (_call, name, value) => {
        fields += 1;
        return `this.${name} = ${value};`;
      });
      if (fields < EXPECTED_FIELDS) throw new Error(`markdown-it's build has ${fields} class fields where ${EXPECTED_FIELDS} or more were expected: review scripts/cli-bundle.mjs`);
      return { contents, loader: 'js' };
    });
  },
};

// entities decodes its packed table of HTML entities into a trie when its module loads, about
// 1.5 ms of every start-up, though only text holding a `&` ever needs it and a run on warm
// caches parses nothing. The bundle builds the trie on its first use instead. The table's module
// and its one reader are rewritten; any other shape means entities changed: the build stops.
const TREE = /export const htmlDecodeTree = \/\* #__PURE__ \*\/ (decodeTrieDict\([^\n]*\));\n/;
const TREE_IMPORT = 'import { htmlDecodeTree } from "./generated/decode-data-html.js";';
const TREE_READ = 'const decodeTree = htmlDecodeTree;';

const entityTrieOnFirstUse = {
  name: 'entity-trie-on-first-use',
  setup(build) {
    const rewrite = (path, contents) => ({ contents, loader: 'js', resolveDir: dirname(path) });
    const changed = () => new Error("entities' build is not the shape scripts/cli-bundle.mjs rewrites: review it");
    build.onLoad({ filter: /[\\/]entities[\\/]dist[\\/]generated[\\/]decode-data-html\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!TREE.test(source)) throw changed();
      return rewrite(path, source.replace(TREE, (_whole, call) => `export let htmlDecodeTree;\nexport function loadHtmlDecodeTree() {\n  return (htmlDecodeTree ??= ${call});\n}\n`));
    });
    build.onLoad({ filter: /[\\/]entities[\\/]dist[\\/]decode\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      // Its import, the one read, a comment and a re-export (which nothing in the CLI imports).
      const uses = source.match(/\bhtmlDecodeTree\b/g)?.length ?? 0;
      if (uses !== 4 || source.split(TREE_IMPORT).length !== 2 || source.split(TREE_READ).length !== 2) throw changed();
      const contents = source
        .replace(TREE_IMPORT, 'import { htmlDecodeTree, loadHtmlDecodeTree } from "./generated/decode-data-html.js";')
        .replace(TREE_READ, 'const decodeTree = htmlDecodeTree ?? loadHtmlDecodeTree();');
      return rewrite(path, contents);
    });
  },
};

// Packages whose modules do work when they load (markdown-it and linkify-it, mdurl, uc.micro,
// punycode and entities under it set up tables and regular expressions; yaml builds its schema
// tags; picomatch its character tables) though a run may never use them: one whose artifacts
// all come from the cache parses no Markdown, one with no configuration file and flat
// front-matter reads no YAML, and one with no verification checks matches no path. The bundle
// gives each import of them a stand-in that loads the package on the first call: a library of
// `CHUNKS` from its own file beside the bundle, any other as a module of the bundle initialised
// then. A stand-in has the values the CLI imports and no others: an import of another is a build
// error, not a package loaded at start-up unseen.
const FIRST_USE = {
  // Node's own, but loading it takes 2 to 3 ms, and a run without caches may never take a digest.
  'node:crypto': ['createHash', 'randomBytes', 'randomUUID'].map((name) => `export function ${name}(...args) {\n  return load().${name}(...args);\n}\n`).join(''),
  // CommonJS: the module is the function.
  'picomatch/posix.js': 'export default function picomatch(...args) {\n  return load()(...args);\n}\n',
  'markdown-it': 'export default function markdownIt(...args) {\n  return load().default(...args);\n}\n',
  // Read only when a baseline grew, for the lines of its entries.
  '@humanwhocodes/momoa': 'export function parse(...args) {\n  return load().parse(...args);\n}\n',
  yaml: [
    ...['isMap', 'isPair', 'isScalar', 'isSeq'].map((name) => `export function ${name}(node) {\n  return load().${name}(node);\n}\n`),
    'export function parseDocument(...args) {\n  return load().parseDocument(...args);\n}\n',
    // Only ever constructed (a depth error placed as the parser places its own).
    'export function YAMLParseError(...args) {\n  return new (load().YAMLParseError)(...args);\n}\n',
  ].join(''),
};

const chunkOf = (path) => Object.keys(CHUNKS).find((chunk) => CHUNKS[chunk].packages.includes(path));

const packagesOnFirstUse = (root) => ({
  name: 'packages-on-first-use',
  setup(build) {
    const namespace = 'on-first-use';
    const names = Object.keys(FIRST_USE).map((name) => name.replace(/[.-]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(?:${names.join('|')})$`) }, async ({ path, namespace: from, resolveDir, kind, pluginData }) => {
      if (pluginData?.real) return undefined;
      // The stand-in's require: the module an import names (for markdown-it, the ES build the plugin above rewrites).
      if (from === namespace) return build.resolve(path, { resolveDir, kind: 'import-statement', pluginData: { real: true } });
      if (kind !== 'import-statement') return undefined;
      return { path, namespace, pluginData: { resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace }, ({ path, pluginData }) => {
      const chunk = chunkOf(path);
      const loading = chunk
        ? `import { loadChunk } from ${JSON.stringify(join(root, 'packages/cli/src/bundle-dir.ts'))};\nlet loaded;\nconst load = () => (loaded ??= loadChunk(${JSON.stringify(chunkFile(chunk))}));\n`
        : `let loaded;\nconst load = () => (loaded ??= require(${JSON.stringify(path)}));\n`;
      return { contents: `${loading}${FIRST_USE[path]}`, loader: 'js', resolveDir: pluginData.resolveDir };
    });
  },
});
