// A Responses API body read into a preset (POST /presets/{slug}/responses), and a preset written into
// one: the Responses surface's preset port, registered with the text engine.
import {
  applyShared,
  common,
  defined,
  fill,
  prependToField,
  present,
  refuseNestedPreset,
  systemPrompt,
  type PresetContent,
  type PresetReference,
} from '../presets/presets-config.service.ts'
import type { PresetConfig, ResponsesPresetBody } from '../presets/presets.schemas.ts'

const RESPONSES_SAMPLING = ['temperature', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty', 'seed'] as const

/** A Responses API body's preset: `instructions` is the system prompt. */
export function fromResponses(body: ResponsesPresetBody): PresetContent {
  refuseNestedPreset(body.model)
  const config = common(body, RESPONSES_SAMPLING)
  if (present(body.max_output_tokens)) config.max_tokens = body.max_output_tokens!
  const reasoning = defined({ ...body.reasoning })
  if (Object.keys(reasoning).length > 0) config.reasoning = reasoning as PresetConfig['reasoning']
  return { config, system_prompt: systemPrompt(body.instructions ?? '', 'instructions') }
}

/** A preset written into a Responses API body, in place: its system prompt before `instructions`. */
export function toResponses(body: Record<string, unknown>, content: PresetContent, reference: PresetReference): void {
  const { config } = content
  applyShared(body, content, reference, RESPONSES_SAMPLING)
  fill(body, 'max_output_tokens', config.max_tokens)
  if (config.reasoning !== undefined) {
    const { exclude: _exclude, ...reasoning } = config.reasoning
    fill(body, 'reasoning', reasoning)
  }
  if (content.system_prompt !== null) prependToField(body, 'instructions', content.system_prompt)
}
