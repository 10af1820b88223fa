// A Responses API body read into a preset (POST /presets/{slug}/responses): the Responses surface's
// preset port, registered with the text engine.
import { common, defined, present, refuseNestedPreset, systemPrompt, type PresetContent } from '../presets/presets-config.service.ts'
import type { PresetConfig, ResponsesPresetBody } from '../presets/presets.schemas.ts'

/** A Responses API body's preset: `instructions` is the system prompt. */
export function fromResponses(body: ResponsesPresetBody): PresetContent {
  refuseNestedPreset(body.model)
  const config = common(body, ['temperature', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty', 'seed'])
  if (present(body.max_output_tokens)) config.max_tokens = body.max_output_tokens!
  const reasoning = defined({ ...body.reasoning })
  if (Object.keys(reasoning).length > 0) config.reasoning = reasoning as PresetConfig['reasoning']
  return { config, system_prompt: systemPrompt(body.instructions ?? '', 'instructions') }
}
