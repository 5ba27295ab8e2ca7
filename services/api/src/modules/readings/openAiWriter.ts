import {
  type NarrativeWriter,
  type Prompt,
  promptFor,
  streamingWriter,
  type WriteOptions,
} from '@astra/readings';
import OpenAI from 'openai';

export interface OpenAiSettings {
  apiKey: string;
  baseURL?: string | undefined;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The narrative writer on OpenAI's chat completions, streamed: each piece of text is passed on
 * as the model writes it. The prompts carry the positions, cards and numbers we computed, so the
 * model writes about our facts rather than its own guesses.
 */
export function openAiWriter(settings: OpenAiSettings): NarrativeWriter {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });

  async function* write({ system, user }: Prompt, options?: WriteOptions) {
    // The client's timeout (and its retries) cover the call until the answer starts; a stream
    // that stalls afterwards is stopped here when no piece came for as long.
    const stop = new AbortController();
    const stopped = () => stop.abort(options?.signal?.reason);
    options?.signal?.addEventListener('abort', stopped, { once: true });
    let idle = setTimeout(
      () => stop.abort(new Error('The model stopped writing')),
      settings.timeoutMs,
    );
    try {
      const stream = await client.chat.completions.create(
        {
          model: settings.model,
          temperature: 0.8,
          stream: true,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal: stop.signal },
      );
      let started = false;
      let finished = false;
      for await (const chunk of stream) {
        clearTimeout(idle);
        idle = setTimeout(
          () => stop.abort(new Error('The model stopped writing')),
          settings.timeoutMs,
        );
        const choice = chunk.choices[0];
        if (choice?.finish_reason) finished = true;
        let piece = choice?.delta?.content ?? '';
        // The text starts at its first visible character (as the recorded text does).
        if (!started) piece = piece.trimStart();
        if (!piece) continue;
        started = true;
        yield piece;
      }
      // An aborted stream ends quietly in the client: it must not pass for a whole text.
      if (stop.signal.aborted) throw stop.signal.reason ?? new Error('The text was stopped');
      if (!finished) throw new Error("The model's answer broke off");
      if (!started) throw new Error('The model answered without text');
    } finally {
      clearTimeout(idle);
      options?.signal?.removeEventListener('abort', stopped);
    }
  }

  return streamingWriter(`openai:${settings.model}`, {
    natalChart: (facts, options) => write(promptFor.natalChart(facts), options),
    tarotTraditional: (facts, options) => write(promptFor.tarotTraditional(facts), options),
    celticCross: (facts, options) => write(promptFor.celticCross(facts), options),
    compatibility: (facts, options) => write(promptFor.compatibility(facts), options),
    lifePath: (facts, options) => write(promptFor.lifePath(facts), options),
  });
}
