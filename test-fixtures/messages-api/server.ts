// A loopback stand-in for the Anthropic Messages API, so tests run the real Claude Code CLI
// with no network: `POST /v1/messages` answers from a per-test script, streamed as
// server-sent events when the request asks for `stream: true` and as one JSON message
// otherwise, and every request is recorded so a test can assert what the model was shown.
// Written from the public shape of the API; it models nothing but the wire format.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token counts a reply reports (the API's `usage`). */
export interface ReplyUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * One scripted answer to one `POST /v1/messages`:
 * - `text`: the assistant says this and ends its turn;
 * - `tool`: the assistant calls one of the client's tools (Claude Code runs its own Write,
 *   Edit, Read…) with this input, optionally saying `text` first;
 * - `error`: the API refuses with this HTTP status and the API's error body.
 */
export type Reply =
  | { readonly text: string; readonly usage?: ReplyUsage }
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>>; readonly text?: string; readonly usage?: ReplyUsage }
  | { readonly error: number; readonly message?: string };

/** A request body sent to `/v1/messages`, as far as tests read it. */
export interface MessagesRequest {
  readonly model: string;
  readonly stream?: boolean;
  readonly system?: string | readonly { type: string; text?: string }[];
  readonly messages: readonly { role: string; content: string | readonly Record<string, unknown>[] }[];
  readonly tools?: readonly { name: string }[];
  readonly [key: string]: unknown;
}

/** Any request the server saw, in order. */
export interface RecordedRequest {
  readonly method: string;
  /** The request target: a path, or `host:port` for a CONNECT through the proxy trap. */
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  readonly body: unknown;
}

/** Chooses the reply to a request when the queue is empty. */
export type ReplyRule = Reply | ((request: MessagesRequest) => Reply);

export interface MessagesServer {
  /** The base URL for `ANTHROPIC_BASE_URL` (and the proxy trap for `HTTPS_PROXY`). */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** The bodies of the `POST /v1/messages` requests, in order. */
  messages(): MessagesRequest[];
  /** Requests to anything but the Messages API: a test asserts there were none. */
  unexpected(): RecordedRequest[];
  /** Replies used in order by the next Messages requests, before `otherwise`. */
  queue(...replies: Reply[]): void;
  /** The reply once the queue is empty (by default the text `Done.`). */
  otherwise(rule: ReplyRule): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: ReplyUsage = { inputTokens: 100, outputTokens: 10 };
const MESSAGES_PATH = '/v1/messages';
const MAX_MESSAGES = 40;
// Claude Code checks that its API host answers before a session when non-essential traffic is on.
const REACHABILITY_PATH = '/api/hello';

// The API's error type for each status it documents.
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Start a server on a free loopback port. */
export async function startMessagesServer(replies: readonly Reply[] = [], otherwise: ReplyRule = { text: 'Done.' }): Promise<MessagesServer> {
  const requests: RecordedRequest[] = [];
  const queued = [...replies];
  let fallback = otherwise;
  let served = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = parseBody(raw);
      const path = req.url ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      if (req.method === 'POST' && pathname(path) === MESSAGES_PATH) {
        if (typeof body !== 'object' || body === null) return sendError(res, 400, 'the request body is not a JSON object');
        // A script that never lets the agent finish must not loop until the test times out.
        if (served >= MAX_MESSAGES) return sendError(res, 400, `this loopback server answers at most ${MAX_MESSAGES} requests`);
        const request = body as MessagesRequest;
        const next = queued.shift() ?? (typeof fallback === 'function' ? fallback(request) : fallback);
        served += 1;
        return answer(res, request, next, served);
      }
      if (pathname(path) === REACHABILITY_PATH) return void res.writeHead(200).end();
      sendError(res, 404, `${req.method} ${path} is not served here`);
    });
  });
  // With HTTPS_PROXY pointing here, a client that tries to reach any other host is recorded
  // (CONNECT host:443) and refused instead of reaching the network.
  server.on('connect', (req: IncomingMessage, socket) => {
    requests.push({ method: req.method ?? 'CONNECT', path: req.url ?? '', headers: req.headers, body: undefined });
    socket.on('error', () => {});
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const isMessages = (r: RecordedRequest) => r.method === 'POST' && pathname(r.path) === MESSAGES_PATH;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messages: () => requests.filter(isMessages).map((r) => r.body as MessagesRequest),
    unexpected: () => requests.filter((r) => !isMessages(r) && pathname(r.path) !== REACHABILITY_PATH),
    queue: (...more) => void queued.push(...more),
    otherwise: (rule) => void (fallback = rule),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Everything a request showed the model, as one text: system prompt, messages, tool results. */
export function shownToModel(request: MessagesRequest): string {
  const parts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      const block = value as Record<string, unknown>;
      if (typeof block['text'] === 'string') parts.push(block['text']);
      if (block['type'] === 'tool_result') collect(block['content']);
      if (block['type'] === 'tool_use') parts.push(JSON.stringify(block['input']));
    }
  };
  collect(request.system);
  for (const message of request.messages) collect(message.content);
  return parts.join('\n');
}

/** The text of the newest message in a request (what the model is asked to answer now). */
export function lastMessage(request: MessagesRequest): string {
  const last = request.messages.at(-1);
  return last === undefined ? '' : shownToModel({ model: request.model, messages: [last] });
}

function pathname(path: string): string {
  return path.split('?', 1)[0] ?? '';
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

// The messages the API gives for the errors tests script most.
function errorMessage(status: number, model: string): string {
  if (status === 401) return 'invalid x-api-key';
  if (status === 404) return `model: ${model}`;
  if (status === 529) return 'Overloaded';
  return `loopback error ${status}`;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_loopback_${status}` });
  res.end(JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }));
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Readonly<Record<string, unknown>> };

function answer(res: ServerResponse, request: MessagesRequest, reply: Reply, serial: number): void {
  if ('error' in reply) return sendError(res, reply.error, reply.message ?? errorMessage(reply.error, request.model));
  const blocks: Block[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  if ('tool' in reply) blocks.push({ type: 'tool_use', id: `toolu_loopback_${serial}`, name: reply.tool, input: reply.input });
  const stopReason = 'tool' in reply ? 'tool_use' : 'end_turn';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const message = {
    id: `msg_loopback_${serial}`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    stop_sequence: null,
  };
  const apiUsage = (output: number) => ({ input_tokens: usage.inputTokens, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

  if (request.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_loopback_${serial}` });
    res.end(JSON.stringify({ ...message, content: blocks, stop_reason: stopReason, usage: apiUsage(usage.outputTokens) }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_loopback_${serial}` });
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', { message: { ...message, content: [], stop_reason: null, usage: apiUsage(1) } });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.outputTokens } });
  event('message_stop', {});
  res.end();
}
