import { createServer, type Server } from 'node:http';

/** A loopback stand-in for OpenAI's chat completions: it writes, or fails with 500. */
export function fakeOpenAi(mode: () => 'write' | 'fail') {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (mode() === 'fail') {
        res.statusCode = 500;
        return res.end(JSON.stringify({ error: { message: 'down', type: 'server_error' } }));
      }
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'gpt-test',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: '## Your Reading\n\nThe numbers speak.' },
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  return new Promise<{ url: string; close(): void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/v1`, close: () => server.close() });
    }),
  );
}
