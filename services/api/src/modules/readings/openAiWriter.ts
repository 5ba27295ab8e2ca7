import { type NarrativeWriter, promptFor } from '@astra/readings';
import OpenAI from 'openai';

export interface OpenAiSettings {
  apiKey: string;
  baseURL?: string | undefined;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The narrative writer on OpenAI's chat completions. The prompts carry the positions, cards and
 * numbers we computed, so the model writes about our facts rather than its own guesses.
 */
export function openAiWriter(settings: OpenAiSettings): NarrativeWriter {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  const write = async ({ system, user }: { system: string; user: string }) => {
    const completion = await client.chat.completions.create({
      model: settings.model,
      temperature: 0.8,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    });
    const text = completion.choices[0]?.message?.content?.trim();
    if (!text) throw new Error('The model answered without text');
    return text;
  };
  return {
    id: `openai:${settings.model}`,
    natalChart: (facts) => write(promptFor.natalChart(facts)),
    tarotTraditional: (facts) => write(promptFor.tarotTraditional(facts)),
    celticCross: (facts) => write(promptFor.celticCross(facts)),
    compatibility: (facts) => write(promptFor.compatibility(facts)),
    lifePath: (facts) => write(promptFor.lifePath(facts)),
  };
}
