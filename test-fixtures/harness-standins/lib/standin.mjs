// Stand-ins for the `claude` and `cursor-agent` CLIs. They accept exactly the options the
// harnesses' own `--help` lists (`claude --help` of the pinned Claude Code 2.1.332;
// `cursor-agent --help` as documented), reject any other the way the real CLIs do
// (`error: unknown option '-m'`, exit 1), read stdin when the real CLI would, and print the
// documented result JSON. `cursor-agent` cannot be installed, so its tests rely on this one.
// Claude Code's real behaviour is tested with the real CLI (the *.claude-code.test.ts files);
// the `claude` stand-in remains for faults the real one cannot be made to show (a hang, a
// surviving grandchild, undecodable or nonsensical output) and for fast orchestrator tests.
//
// Behaviour is switched by environment variables:
//   STANDIN_RECORD        file to which one JSON line per invocation is appended:
//                         {harness, argv, stdin, cwd, prompt, promptFromFile, step, sessionId}
//   STANDIN_MODE          success (default) | is-error | exit-nonzero | hang | hang-grandchild |
//                         partial-then-hang | prose | invalid-utf8 | odd-usage
//   STANDIN_REFUSE_MODEL  a model name this harness refuses (is_error result, exit 1)
//   STANDIN_PIDFILE       where hang-grandchild writes the grandchild's pid
//   STANDIN_READY         a file partial-then-hang creates once its partial output is written
//   STANDIN_SCRIPT        a JSON file: a list of steps, one per invocation, in order, for an
//                         agent that works the repository. A step is
//                         {write?: {path: content}, mode?, answer?, result?}:
//                         `write` is what the agent writes (relative to its working directory),
//                         applied only when the run allows edits (claude: --permission-mode
//                         acceptEdits or bypassPermissions, or --dangerously-skip-permissions;
//                         cursor-agent: --force), as the real CLIs do; `answer` is a structured
//                         answer (claude with --json-schema: `structured_output`, checked
//                         against the schema's required keys and enums as Claude Code does;
//                         otherwise the reply text is the answer as JSON); a string `answer` is
//                         a reply that is not JSON. The step counter and the session ids issued
//                         are kept in `<script>.state.json`; `--resume <id>` of an id never
//                         issued fails as the real CLI does.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Options per harness, as each CLI's --help lists them: false = boolean, true = takes a
// value, 'optional' = optional value, 'variadic' = one or more values; an array = the
// value's allowed choices.
export const OPTIONS = {
  claude: {
    short: { '-p': '--print', '-r': '--resume', '-c': '--continue', '-h': '--help', '-d': '--debug', '-n': '--name', '-v': '--version', '-w': '--worktree' },
    long: {
      '--add-dir': 'variadic',
      '--agent': true,
      '--agents': true,
      '--allow-dangerously-skip-permissions': false,
      '--allowedTools': 'variadic',
      '--allowed-tools': 'variadic',
      '--append-system-prompt': true,
      '--autocompact': true,
      '--ax-screen-reader': false,
      '--bg': false,
      '--background': false,
      '--bare': false,
      '--betas': 'variadic',
      '--brief': false,
      '--chrome': false,
      '--cloud': 'optional',
      '--continue': false,
      '--dangerously-skip-permissions': false,
      '--debug': 'optional',
      '--debug-file': true,
      '--desktop': false,
      '--disable-slash-commands': false,
      '--disallowedTools': 'variadic',
      '--disallowed-tools': 'variadic',
      '--effort': true,
      '--environment': true,
      '--exclude-dynamic-system-prompt-sections': false,
      '--fallback-model': true,
      '--file': 'variadic',
      '--fork-session': false,
      '--forward-subagent-text': false,
      '--from-pr': 'optional',
      '--help': false,
      '--ide': false,
      '--include-hook-events': false,
      '--include-partial-messages': false,
      '--input-format': ['text', 'stream-json'],
      '--json-schema': true,
      '--max-budget-usd': true,
      '--mcp-config': 'variadic',
      '--model': true,
      '--name': true,
      '--no-chrome': false,
      '--no-session-persistence': false,
      '--output-format': ['text', 'json', 'stream-json'],
      '--permission-mode': ['acceptEdits', 'auto', 'bypassPermissions', 'manual', 'dontAsk', 'plan'],
      '--permission-prompts': ['host', 'none'],
      '--plugin-dir': true,
      '--plugin-url': true,
      '--print': false,
      '--prompt-suggestions': 'optional',
      '--remote-control': 'optional',
      '--remote-control-session-name-prefix': true,
      '--replay-user-messages': false,
      '--restricted': false,
      '--resume': 'optional',
      '--safe-mode': false,
      '--session-id': true,
      '--setting-sources': true,
      '--settings': true,
      '--strict-mcp-config': false,
      '--system-prompt': true,
      '--system-prompt-snapshot': ['on', 'off'],
      '--teleport': 'optional',
      '--tmux': false,
      '--tools': 'variadic',
      '--verbose': false,
      '--version': false,
      '--worktree': 'optional',
    },
    readsStdin: true,
  },
  'cursor-agent': {
    short: { '-p': '--print', '-h': '--help' },
    long: {
      '--print': false,
      '--output-format': ['text', 'json', 'stream-json'],
      '--model': true,
      '--resume': 'optional',
      '--continue': false,
      '--mode': ['agent', 'plan', 'ask'],
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
    const next = argv[i + 1];
    const isValue = next !== undefined && !next.startsWith('-');
    if (kind === false) options[name] = true;
    else if (inline !== undefined) options[name] = inline;
    else if (kind === 'optional') options[name] = isValue ? argv[++i] : true;
    else if (kind === 'variadic') {
      if (!isValue) fail(`option '${name} <values...>' argument missing`);
      const values = [];
      while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) values.push(argv[++i]);
      options[name] = values;
    } else {
      if (next === undefined) fail(`option '${name} <value>' argument missing`);
      options[name] = argv[++i];
    }
    if (Array.isArray(kind) && !kind.includes(options[name])) {
      fail(`option '${name} <value>' argument '${options[name]}' is invalid. Allowed choices are ${kind.join(', ')}.`);
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

const sessionIdOf = (serial) => `8d3c0b1e-0000-4000-8000-${String(serial).padStart(12, '0')}`;

// The next scripted step and the session this invocation runs in. A resumed session keeps
// its id; an id this stand-in never issued is refused as the real CLI refuses it.
function takeStep(scriptFile, resume) {
  const steps = JSON.parse(readFileSync(scriptFile, 'utf8'));
  const stateFile = `${scriptFile}.state.json`;
  const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : { taken: 0, sessions: [] };
  const index = state.taken;
  state.taken += 1;
  let sessionId;
  if (typeof resume === 'string') {
    if (!state.sessions.includes(resume)) {
      writeFileSync(stateFile, JSON.stringify(state));
      process.stderr.write(`No conversation found with session ID: ${resume}\n`);
      process.exit(1);
    }
    sessionId = resume;
  } else {
    sessionId = sessionIdOf(state.sessions.length + 1);
    state.sessions.push(sessionId);
  }
  writeFileSync(stateFile, JSON.stringify(state));
  if (index >= steps.length) {
    process.stderr.write(`the stand-in's script has no step ${index + 1} (it has ${steps.length})\n`);
    process.exit(1);
  }
  return { step: steps[index], index, sessionId };
}

// Claude Code checks a structured answer against --json-schema and gives up with an error
// result after its retries; the stand-in checks what the-loop's schemas use: required keys
// and enums of the top-level properties.
function matchesSchema(answer, schema) {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return false;
  for (const key of schema.required ?? []) if (!(key in answer)) return false;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (key in answer && Array.isArray(property.enum) && !property.enum.includes(answer[key])) return false;
  }
  return true;
}

export function main(harness) {
  const argv = process.argv.slice(2);
  const { options, positionals } = parse(harness, argv);
  if (!options['--print']) fail('the stand-in only implements print mode (-p, --print)');
  const format = options['--output-format'] ?? 'text';
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
  const scripted = process.env.STANDIN_SCRIPT ? takeStep(process.env.STANDIN_SCRIPT, options['--resume']) : undefined;
  const sessionId = scripted?.sessionId ?? sessionIdOf(1);
  if (process.env.STANDIN_RECORD) {
    const line = { harness, argv, stdin, cwd: process.cwd(), prompt, promptFromFile, step: scripted?.index ?? null, sessionId };
    appendFileSync(process.env.STANDIN_RECORD, `${JSON.stringify(line)}\n`);
  }

  const model = options['--model'];
  const step = scripted?.step ?? {};
  const mode = step.mode ?? process.env.STANDIN_MODE ?? 'success';
  const digest = createHash('sha256').update(promptFromFile ?? prompt).digest('hex');
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

  // The agent's edits, where the run allows them.
  const denials = [];
  const mayEdit =
    harness === 'claude'
      ? ['acceptEdits', 'bypassPermissions'].includes(options['--permission-mode']) || options['--dangerously-skip-permissions'] === true
      : options['--force'] === true;
  for (const [path, content] of Object.entries(step.write ?? {})) {
    const target = resolve(process.cwd(), path);
    if (!mayEdit) {
      denials.push({ tool_name: 'Write', tool_use_id: `toolu_standin_${denials.length + 1}`, tool_input: { file_path: target } });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const permission = harness === 'claude' ? { permission_denials: denials } : {};

  let text = step.result ?? (scripted ? `[${harness} stand-in] step ${scripted.index + 1} done.` : `[${harness} stand-in] reviewed a prompt of sha256 ${digest}: no findings.`);
  let structured = {};
  if (step.answer !== undefined) {
    const schemaText = options['--json-schema'];
    if (typeof schemaText === 'string') {
      if (!matchesSchema(step.answer, JSON.parse(schemaText))) {
        print({ ...base, subtype: 'error_max_structured_output_retries', is_error: true, result: '', errors: ['Failed to provide valid structured output'], ...usage });
        process.exit(1);
      }
      structured = { structured_output: step.answer };
    }
    text = typeof step.answer === 'string' ? step.answer : JSON.stringify(step.answer);
  }

  switch (mode) {
    case 'success':
      print({ ...base, result: text, ...structured, ...permission, ...usage });
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
      // Written whole or not at all: a test reads the file as soon as it exists.
      writeFileSync(`${process.env.STANDIN_PIDFILE}.part`, String(child.pid));
      renameSync(`${process.env.STANDIN_PIDFILE}.part`, process.env.STANDIN_PIDFILE);
      setInterval(() => undefined, 1000);
      return;
    }
    default:
      fail(`unknown STANDIN_MODE ${mode}`);
  }
}
