import { createServer, type Server, type ServerResponse } from 'node:http';

/**
 * A loopback stand-in for OpenAI's chat completions API, for the real `openai` client (the
 * server's `OPENAI_BASE_URL`). It answers a streamed request as OpenAI does, with server-sent
 * `chat.completion.chunk`s word by word, and any other with one `chat.completion`. The API
 * tests, the browser tests and the reading stream benchmark use it.
 */

export const DOUBLE_TEXT =
  '## Your Reading\n\n**The cards speak.** A reading written by the model.';

/** How the double answers one request. */
export interface Script {
  /** The text the model writes (its words are the stream's pieces). */
  text?: string;
  /** 500 before any text, as when the model is down. */
  fail?: boolean;
  /** Waited for before each piece: a fixed pace, or a gate the test opens. */
  before?: (index: number) => Promise<void>;
  /** The connection breaks after this many pieces: a stream cut off half way. */
  breakAfter?: number;
}

/** A request the double received, and when it sent its first and last pieces (ms since epoch). */
export interface SeenRequest {
  model: string;
  stream: boolean;
  messages: { role: string; content: string }[];
  receivedAt: number;
  firstPieceAt?: number;
  lastPieceAt?: number;
}

/** The pieces of a text as the double streams them: each word with the space after it. */
export const piecesOf = (text: string) => text.match(/\s*\S+\s*/g) ?? [];

/** A gate for `Script.before`: the double's pieces pass as far as the test opens it. */
export function pieceGate() {
  let opened = 0;
  const waiting = new Map<number, () => void>();
  return {
    before: (index: number) =>
      index < opened ? Promise.resolve() : new Promise<void>((go) => waiting.set(index, go)),
    open(count = Number.POSITIVE_INFINITY) {
      opened = count;
      for (const [index, go] of waiting)
        if (index < opened) {
          waiting.delete(index);
          go();
        }
    },
  };
}

export function fakeOpenAi(reply: (request: SeenRequest) => 'write' | 'fail' | Script) {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      const parsed = JSON.parse(body);
      const request: SeenRequest = {
        model: parsed.model,
        stream: parsed.stream === true,
        messages: parsed.messages,
        receivedAt: Date.now(),
      };
      seen.push(request);
      const answer = reply(request);
      const script: Script = answer === 'write' ? {} : answer === 'fail' ? { fail: true } : answer;
      if (script.fail) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }),
        );
      }
      const text = script.text ?? DOUBLE_TEXT;
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(completion(request.model, text)));
      }
      void stream(res, request, text, script);
    });
  });

  return new Promise<{ url: string; seen: SeenRequest[]; close(): void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        seen,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      });
    }),
  );
}

const base = (model: string) => ({
  id: 'chatcmpl-test',
  created: Math.floor(Date.now() / 1000),
  model,
});

const completion = (model: string, text: string) => ({
  ...base(model),
  object: 'chat.completion',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

const chunk = (model: string, delta: object, finishReason: string | null = null) =>
  `data: ${JSON.stringify({
    ...base(model),
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;

async function stream(res: ServerResponse, request: SeenRequest, text: string, script: Script) {
  res.socket?.setNoDelay(true);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk(request.model, { role: 'assistant', content: '' }));
  const pieces = piecesOf(text);
  for (const [index, piece] of pieces.entries()) {
    await script.before?.(index);
    if (res.destroyed) return;
    if (script.breakAfter === index) {
      res.destroy();
      return;
    }
    res.write(chunk(request.model, { content: piece }));
    request.firstPieceAt ??= Date.now();
    request.lastPieceAt = Date.now();
  }
  res.write(chunk(request.model, {}, 'stop'));
  res.end('data: [DONE]\n\n');
}
