// The wire format paths the real-client tests do not reach: a non-streamed reply, an error
// body, and the proxy trap. Streaming, tool use and the 404 refusal are proven by Claude Code
// itself in the CLI's *.claude-code.test.ts files.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from './server.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (body: unknown) =>
  fetch(`${server!.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('loopback Messages API', () => {
  it('answers a request without stream: true with one message, and records the request', async () => {
    server = await startMessagesServer([{ tool: 'Write', input: { file_path: 'a.md', content: 'x' }, text: 'Writing.' }]);
    const request = { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'Write a.md' }] };
    const response = await post(request);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 'msg_loopback_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_sequence: null,
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Writing.' },
        { type: 'tool_use', id: 'toolu_loopback_1', name: 'Write', input: { file_path: 'a.md', content: 'x' } },
      ],
      usage: { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(server.messages()).toEqual([request]);
    expect(server.unexpected()).toEqual([]);
  });

  it('refuses with the status and error body the API documents', async () => {
    server = await startMessagesServer([], { error: 529 });
    const response = await post({ model: 'claude-test', messages: [] });
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('ends a script that would loop for ever: after 40 requests the API refuses', async () => {
    server = await startMessagesServer([], { tool: 'Read', input: { file_path: 'a.md' } });
    const statuses: number[] = [];
    for (let i = 0; i < 41; i += 1) statuses.push((await post({ model: 'claude-test', messages: [] })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.at(-1)).toBe(400);
  });

  it('records and refuses a tunnel to any other host, and any other path', async () => {
    server = await startMessagesServer();
    const { port } = new URL(server.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 403/);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(404);
    expect(server.unexpected().map((r) => `${r.method} ${r.path}`)).toEqual(['CONNECT api.example.com:443', 'GET /v1/models']);
  });
});
