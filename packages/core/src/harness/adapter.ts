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
  /**
   * The run may change files in its working directory: an orchestrated node writes its
   * artifact. Absent for a review or a probe, which only read.
   */
  readonly writes?: boolean | undefined;
  /** Continue this recorded session (the harness's session id) instead of starting a fresh one. */
  readonly resume?: string | undefined;
  /**
   * A JSON Schema the reply must match (structured output). A harness that can enforce one
   * is given it; the prompt asks for the same JSON either way, and the answer is validated
   * by the-loop whatever the harness did.
   */
  readonly answerSchema?: Readonly<Record<string, unknown>> | undefined;
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
  /**
   * The structured answer, when the run was asked for one: the result object's
   * `structured_output`, else the reply text when it is one JSON object. Undefined for
   * anything else — an answer that cannot be read is never guessed from prose.
   */
  readonly structured: unknown;
}

/** What the-loop does when a hook event arrives. */
export type HookEventKind =
  /** The agent is about to stop: the reply may hold it with what is still unmet. */
  | 'stop'
  /** A session starts or a prompt arrives: the reply may put the work item's state in context. */
  | 'context'
  /** A file was written: an artifact under the spec root is checked at once. */
  | 'edit';

/** One hook event a harness sends, under the harness's own name. */
export interface HookEvent {
  readonly name: string;
  readonly kind: HookEventKind;
  /** False when the harness reads no context from the reply to this event; the text then goes to stderr, which its hook log shows. */
  readonly takesContext: boolean;
}

/** A hook payload, whatever the harness: the fields the-loop reads. */
export interface HookPayload {
  readonly event: string;
  /** The session (or conversation) the event belongs to: the no-progress count is kept per session. */
  readonly sessionId: string | null;
  /** The project directory the payload names, when it names one. */
  readonly projectDir: string | null;
  /** The session's working directory, when the payload gives it. */
  readonly cwd: string | null;
  /** The file an edit event wrote. */
  readonly filePath: string | null;
  /** How the turn ended, when the harness says (`completed`, `aborted`, `error`); only a completed turn is continued. */
  readonly turnStatus: string | null;
  /**
   * The harness says this stop follows a continuation a stop hook asked for (Claude Code's
   * `stop_hook_active`, Cursor's `loop_count` above 0). Only a stop the-loop cannot decide and
   * cannot count reads it (decision 070); the no-progress cap never relies on it.
   */
  readonly continuing: boolean;
}

/** What a doctor run plants in a sample payload. */
export interface SamplePayload {
  readonly sessionId: string;
  readonly projectDir: string;
  /** The file an edit event reports as written. */
  readonly filePath: string;
}

/** A harness's hook dialect: its events, its payloads and its replies. */
export interface HookDialect {
  /** The events the-loop answers, in the order they are installed and checked. */
  readonly events: readonly HookEvent[];
  /** The variable the harness sets to the project directory when it runs a hook command, if any. */
  readonly projectDirVariable?: string | undefined;
  /** Read the JSON the harness writes to a hook's stdin. */
  parsePayload(text: string): { ok: true; payload: HookPayload } | { ok: false; error: string };
  /** The reply to a stop event: hold the agent with `continuation` as its next step, or (undefined) let it stop. */
  stopReply(continuation: string | undefined): Record<string, unknown>;
  /** The reply that puts `text` in the agent's context for a context or edit event; `{}` when there is no text. */
  contextReply(event: string, text: string | undefined): Record<string, unknown>;
  /** What a reply tells the agent, as text: the inverse of the two replies. */
  replyText(reply: Record<string, unknown>): string;
  /** A payload as the harness sends it for `event`; doctor feeds these to the installed hooks. */
  samplePayload(event: string, sample: SamplePayload): Record<string, unknown>;
}

export type SettingsResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Where a harness keeps its hook configuration, and how the-loop's entries are merged into it. */
export interface HookSettings {
  /** The settings file, relative to the project root. */
  readonly file: string;
  /** The launcher the installed commands start when none is given. */
  readonly defaultLauncher: string;
  /** Merge the-loop's hooks into the file's parsed value, keeping everything else. Idempotent. */
  install(settings: unknown, launcher: string): SettingsResult;
  /** Remove only the-loop's entries. */
  uninstall(settings: unknown): SettingsResult;
  /** The installed command line for each event, as found in the file's parsed value. */
  installed(settings: unknown): Map<string, string>;
}

/**
 * The port a harness adapter implements: everything harness-specific. Adapters are passed
 * explicitly to whoever needs them (critic rounds, models check, the hooks, install,
 * doctor, the orchestrator); there is no global registry.
 */
export interface HarnessAdapter {
  /** The name configuration and the command line use (`harness: claude`, `--harness claude`). */
  readonly name: string;
  /** The harness as people name it (`Claude Code`). */
  readonly title: string;
  /** The executable looked up on PATH. */
  readonly binary: string;
  /** How to run the harness once, headless, on one prompt. */
  oneShot(request: OneShotRequest): OneShotArgv;
  /** Read a finished run's stdout (already decoded) and exit code. */
  parseResult(stdout: string, exitCode: number): HarnessResult;
  readonly hooks: HookDialect;
  readonly settings: HookSettings;
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
