import type { Lang } from '../../i18n/index.js';
import type { SummaryConfig } from '../../config.js';

/** The language model did not give a summary: its answer or the reason, for the initiator. */
export class SummaryServiceError extends Error {}

const INSTRUCTIONS: Record<Lang, string> = {
  en: 'You summarise the contributions of a public participation project for its organisers and participants. Write a neutral summary in English of at most 250 words: the main topics, the proposals made, agreement and disagreement. Do not invent anything, name no people, quote nobody at length.',
  de: 'Du fasst die Beiträge eines öffentlichen Beteiligungsprojekts für seine Organisator*innen und Teilnehmenden zusammen. Schreibe eine neutrale Zusammenfassung auf Deutsch mit höchstens 250 Wörtern: die Hauptthemen, die gemachten Vorschläge, Zustimmung und Widerspruch. Erfinde nichts, nenne keine Personen, zitiere niemanden ausführlich.',
};

/** How long the model may take (a self-hosted model on a small machine is slow). */
const TIMEOUT_MS = 120_000;

/**
 * Asks an OpenAI-compatible chat completions API (`POST <url>/chat/completions`) for a summary of
 * `input` in `lang`: the system message above and the input as the user's message, nothing else.
 */
export async function askForSummary(config: SummaryConfig, input: string, lang: Lang, project: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${config.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: INSTRUCTIONS[lang] },
          { role: 'user', content: `# ${project}\n\n${input}` },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new SummaryServiceError(error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'not reachable');
  }
  if (!response.ok) throw new SummaryServiceError(`HTTP ${response.status}`);
  const body = (await response.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new SummaryServiceError('an answer without a summary');
  return content.trim();
}
