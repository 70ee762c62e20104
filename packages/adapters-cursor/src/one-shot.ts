import type { OneShotArgv, OneShotRequest } from '@the-loop/core';

/** The Cursor agent executable. */
export const CURSOR_BINARY = 'cursor-agent';

// Every flag is the spelling `cursor-agent --help` lists, long form where it offers both
// (docs/decisions/010-prompt-delivery-per-harness.md). Each is declared once, here.
/** `-p, --print`: run once, headless, print the reply and exit. */
const PRINT = '--print';
/** `--output-format <format>`: text | json | stream-json. */
const OUTPUT_FORMAT = '--output-format';
/** `--model <model>`. There is no `-m`: sending it once made every cursor critic exit on `unknown option '-m'`. */
const MODEL = '--model';
/** `--trust`: without it a headless run in a workspace the agent has not been told to trust stops to ask. */
const TRUST = '--trust';
/**
 * `--force`: allow the agent's commands and file changes. In print mode, without it
 * changes are only proposed, so an orchestrated node would never write its artifact.
 */
const FORCE = '--force';
/** `--resume [chat-id]`: continue a recorded chat by its id. */
const RESUME = '--resume';
/** `--`: ends the options, so a prompt that starts with `-` is read as the prompt. */
const END_OF_OPTIONS = '--';

/**
 * The largest prompt passed inline, in UTF-8 bytes. Linux refuses any single argv element
 * over 128 KiB (E2BIG), so a longer prompt is handed over as a file the agent reads.
 */
export const INLINE_PROMPT_LIMIT = 100 * 1024;

/**
 * cursor-agent's one-shot argv. The prompt is its last positional argument (cursor-agent
 * documents no stdin prompt), after `--`. A prompt over INLINE_PROMPT_LIMIT is replaced by a
 * short instruction naming the prompt file, which holds the same bytes.
 */
export function cursorOneShot(request: OneShotRequest): OneShotArgv {
  const args = [PRINT, OUTPUT_FORMAT, request.outputFormat, TRUST];
  if (request.model !== undefined) args.push(MODEL, request.model);
  if (request.writes === true) args.push(FORCE);
  if (request.resume !== undefined) args.push(RESUME, request.resume);
  // cursor-agent documents no structured-output flag: the prompt asks for the JSON, and the
  // answer is validated like any other.
  args.push(END_OF_OPTIONS, inlinePrompt(request));
  return { args };
}

function inlinePrompt(request: OneShotRequest): string {
  if (new TextEncoder().encode(request.prompt).length <= INLINE_PROMPT_LIMIT) return request.prompt;
  if (request.promptFile === undefined) {
    throw new Error(`a prompt over ${INLINE_PROMPT_LIMIT} bytes needs a prompt file for cursor-agent`);
  }
  return `Your complete instructions are in the file ${request.promptFile}. Read the whole file and follow it exactly; it is the prompt.`;
}
