// Renders `the-loop graph show --format mermaid` to docs/images/default-graph.svg and .png with
// a headless Chromium and the mermaid package from node_modules. Run after changing the default
// graph: `node scripts/render-graph-diagram.mjs [chromium-binary]`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.argv[2] ?? 'chromium';
const shown = spawnSync(process.execPath, [join(root, 'packages/cli/bin/the-loop.cjs'), 'graph', 'show', '--format', 'mermaid'], { encoding: 'utf8' });
if (shown.status !== 0) throw new Error(`graph show failed: ${shown.stderr}`);
const source = shown.stdout;
writeFileSync(join(root, 'docs/images/default-graph.mmd'), source);

const work = mkdtempSync(join(tmpdir(), 'the-loop-render-'));
const page = join(work, 'graph.html');
const mermaidJs = pathToFileURL(join(root, 'node_modules/mermaid/dist/mermaid.min.js')).href;
writeFileSync(
  page,
  `<!doctype html><html><body style="margin:0;background:#fff">
<pre class="mermaid" id="graph">${source.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>
<script src="${mermaidJs}"></script>
<script>mermaid.initialize({ startOnLoad: false, theme: 'default' }); mermaid.run({ querySelector: '#graph' });</script>
</body></html>`,
);
const flags = ['--headless', '--hide-scrollbars', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--allow-file-access-from-files', '--virtual-time-budget=15000'];
const dom = spawnSync(chromium, [...flags, '--dump-dom', pathToFileURL(page).href], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const svg = /<svg[\s\S]*<\/svg>/.exec(dom.stdout ?? '')?.[0];
if (!svg) throw new Error(`no SVG rendered: ${dom.stderr}`);
writeFileSync(join(root, 'docs/images/default-graph.svg'), `${svg.replace(/<br>/g, '<br/>')}\n`);
const width = Math.ceil(Number(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/.exec(svg)?.[1] ?? 1200)) + 20;
const height = Math.ceil(Number(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/.exec(svg)?.[2] ?? 2400)) + 20;
const shot = spawnSync(chromium, [...flags, `--window-size=${width},${height}`, `--screenshot=${join(root, 'docs/images/default-graph.png')}`, pathToFileURL(page).href], { encoding: 'utf8' });
if (shot.status !== 0) throw new Error(`screenshot failed: ${shot.stderr}`);
rmSync(work, { recursive: true, force: true });
console.log(`rendered ${readFileSync(join(root, 'docs/images/default-graph.svg'), 'utf8').length} bytes of SVG and a ${width}×${height} PNG`);
