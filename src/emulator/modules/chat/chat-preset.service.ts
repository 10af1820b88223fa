// A chat completions body read into a preset (POST /presets/{slug}/chat/completions), and a preset
// written into one: the chat surface's preset port, registered with the text engine.
import { parseMessages } from '../text/text.input.ts'
import {
  applyShared,
  common,
  defined,
  fill,
  present,
  refuseNestedPreset,
  systemPrompt,
  type PresetContent,
  type PresetReference,
} from '../presets/presets-config.service.ts'
import { SAMPLING_NAMES, type ChatPresetBody, type PresetConfig } from '../presets/presets.schemas.ts'

/** A chat completions body's preset: its system and developer messages are the system prompt. */
export function fromChat(body: ChatPresetBody): PresetContent {
  refuseNestedPreset(body.model)
  const config = common(body, SAMPLING_NAMES)
  const maxTokens = body.max_completion_tokens ?? body.max_tokens
  if (present(maxTokens)) config.max_tokens = maxTokens!
  if (typeof body.stop === 'string') config.stop = [body.stop]
  else if (Array.isArray(body.stop) && body.stop.length > 0) config.stop = body.stop
  const reasoning = defined({ ...body.reasoning })
  if (present(body.reasoning_effort) && reasoning.effort === undefined) reasoning.effort = body.reasoning_effort!
  if (Object.keys(reasoning).length > 0) config.reasoning = reasoning as PresetConfig['reasoning']
  // The messages are checked as chat checks them; only the system ones are kept.
  const messages = body.messages.length === 0 ? [] : parseMessages(body.messages)
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => m.text)
    .filter((text) => text !== '')
  return { config, system_prompt: systemPrompt(system.join('\n\n'), 'messages') }
}

/** A preset written into a chat body, in place: its system prompt as a first system message. */
export function toChat(body: Record<string, unknown>, content: PresetContent, reference: PresetReference): void {
  const { config } = content
  applyShared(body, content, reference, SAMPLING_NAMES)
  fill(body, 'max_tokens', config.max_tokens, ['max_completion_tokens'])
  fill(body, 'stop', config.stop)
  if (config.reasoning !== undefined) {
    const { summary: _summary, ...reasoning } = config.reasoning
    fill(body, 'reasoning', reasoning, ['reasoning_effort'])
  }
  // A body whose messages are not a list is left for the route's own check to refuse.
  if (content.system_prompt !== null && Array.isArray(body.messages))
    body.messages = [{ role: 'system', content: content.system_prompt }, ...(body.messages as unknown[])]
}
