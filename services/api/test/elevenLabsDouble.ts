/**
 * ElevenLabs' signed-URL endpoint on loopback (the network edge only): records who asked for
 * which agent with which key, and answers as `mode` says.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** The agent of each reading type, as ELEVENLABS_AGENT_IDS names them. */
export const agents = {
  'natal-chart': 'agent_natal',
  'tarot-celtic-cross': 'agent_celtic',
  'tarot-traditional': 'agent_tarot',
  compatibility: 'agent_compat',
  'life-path': 'agent_lifepath',
};
export const API_KEY = 'xi-test-key-not-real';

export async function startElevenLabsDouble() {
  const asked: { agentId: string | null; apiKey: string | undefined }[] = [];
  const double = {
    mode: 'ok' as 'ok' | 'fail' | 'hang',
    asked,
    url: '',
    server: undefined as Server | undefined,
  };
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v1/convai/conversation/get-signed-url') {
      res.writeHead(404).end();
      return;
    }
    asked.push({
      agentId: url.searchParams.get('agent_id'),
      apiKey: req.headers['xi-api-key'] as string | undefined,
    });
    if (double.mode === 'hang') return; // never answers: the SDK's time-out
    if (double.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'boom' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ signed_url: `wss://voice.test/convai?token=${randomUUID()}` }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  double.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  double.server = server;
  return double;
}
