// A Messages API body read into a preset (POST /presets/{slug}/messages): the Messages surface's preset
// port, registered with the text engine.
import { common, refuseNestedPreset, systemPrompt, type PresetContent } from '../presets/presets-config.service.ts'
import type { MessagesPresetBody } from '../presets/presets.schemas.ts'
import { parseOutputConfig, parseSystem, parseThinking } from './messages.input.ts'

/** A Messages API body's preset: `system` is the system prompt, `thinking` its reasoning. */
export function fromMessages(body: MessagesPresetBody): PresetContent {
  refuseNestedPreset(body.model)
  const config = common(body, ['temperature', 'top_p', 'top_k'])
  if (body.max_tokens !== undefined) config.max_tokens = body.max_tokens
  if (body.stop_sequences !== undefined && body.stop_sequences.length > 0) config.stop = body.stop_sequences
  const { effort } = parseOutputConfig(body.output_config)
  const thinking = parseThinking(body.thinking, effort)
  if ((body.thinking as { type?: unknown } | null | undefined)?.type === 'disabled') config.reasoning = { enabled: false }
  else if (thinking.reasoning?.maxTokens !== undefined) config.reasoning = { max_tokens: thinking.reasoning.maxTokens }
  else if (thinking.reasoning?.effort !== undefined) config.reasoning = { effort: thinking.reasoning.effort }
  const system = parseSystem(body.system)[0]?.text ?? ''
  return { config, system_prompt: systemPrompt(system, 'system') }
}
