import type { OneShotArgv, OneShotRequest } from '@the-loop/core';

/** The Claude Code executable. */
export const CLAUDE_BINARY = 'claude';

// Every flag is the spelling `claude --help` lists, long form where it offers both
// (docs/decisions/010-prompt-delivery-per-harness.md). Each is declared once, here.
/** `-p, --print`: run once, headless, print the reply and exit. */
const PRINT = '--print';
/** `--output-format <format>`: text | json | stream-json, print mode only. */
const OUTPUT_FORMAT = '--output-format';
/** `--model <model>`: the model for the session. */
const MODEL = '--model';
/**
 * `--permission-mode <mode>`, with `acceptEdits`: a headless run asks nobody, so without it
 * every Write and Edit an orchestrated node needs is denied.
 */
const PERMISSION_MODE = '--permission-mode';
const ACCEPT_EDITS = 'acceptEdits';
/** `-r, --resume [value]`: continue a recorded conversation by its session id. */
const RESUME = '--resume';
/**
 * `--json-schema <schema>`: structured output (print mode). Claude Code offers the model a
 * tool shaped by the schema, retries an answer that does not match it, and prints the answer
 * as `structured_output` in its result object.
 */
const JSON_SCHEMA = '--json-schema';

/**
 * Claude's one-shot argv. The prompt goes on stdin (`claude -p` reads it when no prompt
 * argument is given), never into argv: a prompt that starts with `-` cannot be taken for
 * an option, and a 1 MB prompt does not meet the kernel's 128 KiB cap on one argument.
 */
export function claudeOneShot(request: OneShotRequest): OneShotArgv {
  const args = [PRINT, OUTPUT_FORMAT, request.outputFormat];
  if (request.model !== undefined) args.push(MODEL, request.model);
  if (request.writes === true) args.push(PERMISSION_MODE, ACCEPT_EDITS);
  if (request.resume !== undefined) args.push(RESUME, request.resume);
  if (request.answerSchema !== undefined) args.push(JSON_SCHEMA, JSON.stringify(request.answerSchema));
  return { args, stdin: request.prompt };
}
