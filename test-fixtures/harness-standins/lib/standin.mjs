// Stand-ins for the `claude` and `cursor-agent` CLIs. They accept exactly the options the
// harnesses document (`cursor-agent --help`; Claude Code's reference), reject any other the way
// the real CLIs do (`error: unknown option '-m'`, exit 1), read stdin when the real CLI would,
// and print the documented result JSON. `cursor-agent` cannot be installed, so its tests rely on
// this one. Claude Code's real behaviour is tested with the real CLI (the *.claude-code.test.ts
// files); the `claude` stand-in remains for faults the real one cannot be made to show (a hang,
// a surviving grandchild, undecodable or nonsensical output).
// Behaviour is switched by environment variables:
//   STANDIN_RECORD        file to which one JSON line per invocation is appended:
//                         {harness, argv, stdin, cwd, prompt, promptFromFile}
//   STANDIN_MODE          success (default) | is-error | exit-nonzero | hang | hang-grandchild |
//                         partial-then-hang | prose | invalid-utf8 | odd-usage
//   STANDIN_REFUSE_MODEL  a model name this harness refuses (is_error result, exit 1)
//   STANDIN_PIDFILE       where hang-grandchild writes the grandchild's pid
//   STANDIN_READY         a file partial-then-hang creates once its partial output is written
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

// Options per harness: true = takes a value, false = boolean, 'optional' = optional value.
const OPTIONS = {
  claude: {
    short: { '-p': '--print', '-r': '--resume', '-c': '--continue', '-h': '--help' },
    long: {
      '--print': false,
      '--output-format': true,
      '--input-format': true,
      '--model': true,
      '--resume': true,
      '--continue': false,
      '--session-id': true,
      '--permission-mode': true,
      '--max-turns': true,
      '--append-system-prompt': true,
      '--allowedTools': true,
      '--disallowedTools': true,
      '--add-dir': true,
      '--verbose': false,
      '--help': false,
    },
    readsStdin: true,
  },
  'cursor-agent': {
    short: { '-p': '--print', '-h': '--help' },
    long: {
      '--print': false,
      '--output-format': true,
      '--model': true,
      '--resume': 'optional',
      '--continue': false,
      '--mode': true,
      '--force': false,
      '--trust': false,
      '--workspace': true,
      '--api-key': true,
      '--help': false,
    },
    // cursor-agent documents no prompt on stdin; the stand-in still drains it to record it.
    readsStdin: false,
  },
};

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function parse(harness, argv) {
  const spec = OPTIONS[harness];
  const options = {};
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const [raw, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const name = spec.short[raw] ?? raw;
    if (!(name in spec.long)) fail(`unknown option '${raw}'`);
    const kind = spec.long[name];
    if (kind === false) options[name] = true;
    else if (inline !== undefined) options[name] = inline;
    else if (kind === 'optional') options[name] = argv[i + 1] !== undefined && !argv[i + 1].startsWith('-') ? argv[++i] : true;
    else {
      if (argv[i + 1] === undefined) fail(`option '${name} <value>' argument missing`);
      options[name] = argv[++i];
    }
  }
  return { options, positionals };
}

function readStdin() {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

export function main(harness) {
  const argv = process.argv.slice(2);
  const { options, positionals } = parse(harness, argv);
  if (!options['--print']) fail('the stand-in only implements print mode (-p, --print)');
  const format = options['--output-format'] ?? 'text';
  if (!['text', 'json', 'stream-json'].includes(format)) fail(`option '--output-format <format>' argument '${format}' is invalid`);
  const stdin = readStdin();
  let prompt = positionals.join(' ');
  if (prompt === '' && OPTIONS[harness].readsStdin) prompt = stdin;
  if (prompt === '') {
    process.stderr.write('Error: Input must be provided either through stdin or as a prompt argument when using --print\n');
    process.exit(1);
  }
  // An agent told its instructions are in a file reads that file.
  const named = /instructions are in the file (\S+?)\. /.exec(prompt);
  const promptFromFile = named ? readFileSync(named[1], 'utf8') : null;
  if (process.env.STANDIN_RECORD) {
    appendFileSync(process.env.STANDIN_RECORD, `${JSON.stringify({ harness, argv, stdin, cwd: process.cwd(), prompt, promptFromFile })}\n`);
  }

  const model = options['--model'];
  const mode = process.env.STANDIN_MODE ?? 'success';
  const sessionId = '8d3c0b1e-0000-4000-8000-000000000001';
  const digest = createHash('sha256').update(promptFromFile ?? prompt).digest('hex');
  const text = `[${harness} stand-in] reviewed a prompt of sha256 ${digest}: no findings.`;
  const print = (result) => {
    if (format === 'text') process.stdout.write(`${result.result}\n`);
    else process.stdout.write(`${JSON.stringify(result)}\n`);
  };
  const usage =
    harness === 'claude'
      ? { usage: { input_tokens: 1200, output_tokens: 340, cache_creation_input_tokens: 10, cache_read_input_tokens: 800 }, total_cost_usd: 0.0123 }
      : {};
  const base = { type: 'result', subtype: 'success', is_error: false, duration_ms: 20, num_turns: 1, session_id: sessionId };

  if (process.env.STANDIN_REFUSE_MODEL && model === process.env.STANDIN_REFUSE_MODEL) {
    print({ ...base, subtype: 'error', is_error: true, result: `model ${model} is not available to this account` });
    process.exit(1);
  }
  switch (mode) {
    case 'success':
      print({ ...base, result: text, ...usage });
      return;
    case 'is-error':
      print({ ...base, subtype: 'error_during_execution', is_error: true, result: 'the reviewer hit an internal error', ...usage });
      return;
    case 'exit-nonzero':
      process.stderr.write('fatal: the stand-in was told to fail\n');
      process.exit(3);
      break;
    case 'prose':
      process.stdout.write('Finding 1: the error path is untested.\nFinding 2: none else.\n');
      return;
    case 'invalid-utf8':
      process.stdout.write(Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x0a]));
      return;
    case 'odd-usage':
      print({ ...base, result: text, usage: { input_tokens: 'many', output_tokens: -1 }, total_cost_usd: 'NaN' });
      return;
    case 'partial-then-hang':
      process.stdout.write('partial review: finding 1 is');
      if (process.env.STANDIN_READY) writeFileSync(process.env.STANDIN_READY, '');
      setInterval(() => undefined, 1000);
      return;
    case 'hang':
      setInterval(() => undefined, 1000);
      return;
    case 'hang-grandchild': {
      const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
      writeFileSync(process.env.STANDIN_PIDFILE, String(child.pid));
      setInterval(() => undefined, 1000);
      return;
    }
    default:
      fail(`unknown STANDIN_MODE ${mode}`);
  }
}
