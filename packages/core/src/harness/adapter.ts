/** What a caller asks of one non-interactive harness run. */
export interface OneShotRequest {
  /** The full prompt text, exactly as the reviewer must read it. */
  readonly prompt: string;
  /** A file holding the same prompt, for harnesses that cannot take a long prompt in argv. */
  readonly promptFile?: string | undefined;
  /** The model to run; absent means the harness's own default. */
  readonly model?: string | undefined;
  /** `json` asks for the harness's result object; `text` for its plain reply. */
  readonly outputFormat: 'json' | 'text';
}

/** The argv tail (after the binary) and the bytes to feed on stdin, if any. */
export interface OneShotArgv {
  readonly args: readonly string[];
  /** Written to the child's stdin and then closed; absent means stdin is closed at once. */
  readonly stdin?: string | undefined;
}

/** Token and cost figures a harness reported; `present` is false when it reported none. */
export interface Usage {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly cacheReadTokens: number | null;
  readonly cacheWriteTokens: number | null;
  readonly costUsd: number | null;
  readonly present: boolean;
}

/** A harness's one-shot result, read from its stdout and exit code. */
export interface HarnessResult {
  /** The reviewer's text; the raw stdout when the output was not a result object. */
  readonly text: string;
  readonly isError: boolean;
  readonly sessionId: string | null;
  readonly usage: Usage;
  /**
   * The HTTP status of the model API's error, when the harness reports one (Claude Code's
   * `api_error_status`): a refused model (404) is told apart from a bad key or an overload.
   */
  readonly apiErrorStatus: number | null;
}

/**
 * The port a harness adapter implements. Adapters are passed explicitly to whoever needs
 * them (critic rounds, the orchestrator, models check); there is no global registry.
 */
export interface HarnessAdapter {
  /** The name configuration uses (`harness: claude`). */
  readonly name: string;
  /** The executable looked up on PATH. */
  readonly binary: string;
  /** How to run the harness once, headless, on one prompt. */
  oneShot(request: OneShotRequest): OneShotArgv;
  /** Read a finished run's stdout (already decoded) and exit code. */
  parseResult(stdout: string, exitCode: number): HarnessResult;
}

/** Usage when a harness reported nothing. */
export const NO_USAGE: Usage = {
  inputTokens: null,
  outputTokens: null,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  costUsd: null,
  present: false,
};
