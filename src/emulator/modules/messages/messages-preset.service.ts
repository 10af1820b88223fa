// A Messages API body read into a preset (POST /presets/{slug}/messages), and a preset written into
// one: the Messages surface's preset port, registered with the text engine.
import {
  applyShared,
  common,
  fill,
  prependToField,
  present,
  refuseNestedPreset,
  systemPrompt,
  type PresetContent,
  type PresetReference,
} from '../presets/presets-config.service.ts'
import type { MessagesPresetBody, PresetConfig } from '../presets/presets.schemas.ts'
import { parseOutputConfig, parseSystem, parseThinking } from './messages.input.ts'

const MESSAGES_SAMPLING = ['temperature', 'top_p', 'top_k'] as const

/** A Messages API body's preset: `system` is the system prompt, `thinking` its reasoning. */
export function fromMessages(body: MessagesPresetBody): PresetContent {
  refuseNestedPreset(body.model)
  const config = common(body, MESSAGES_SAMPLING)
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

type Body = Record<string, unknown>

/** The Messages API's thinking for a preset's reasoning (chat's names), or undefined for none. */
function thinkingOf(reasoning: NonNullable<PresetConfig['reasoning']>): { thinking: Body; effort?: string } | undefined {
  if (reasoning.enabled === false || reasoning.effort === 'none') return { thinking: { type: 'disabled' } }
  if (reasoning.max_tokens !== undefined && reasoning.max_tokens > 0) return { thinking: { type: 'enabled', budget_tokens: reasoning.max_tokens } }
  if (reasoning.effort === undefined) return undefined
  const effort = ['low', 'medium', 'high', 'xhigh', 'max'].includes(reasoning.effort) ? reasoning.effort : undefined
  return { thinking: { type: 'adaptive' }, ...(effort !== undefined && { effort }) }
}

/** A preset written into a Messages API body, in place: `model` is required, so a fallback fills it; the system prompt goes first. */
export function toMessages(body: Body, content: PresetContent, reference: PresetReference): void {
  const { config } = content
  applyShared(body, content, reference, MESSAGES_SAMPLING, true)
  fill(body, 'max_tokens', config.max_tokens)
  fill(body, 'stop_sequences', config.stop)
  const thinking = config.reasoning === undefined ? undefined : thinkingOf(config.reasoning)
  if (thinking !== undefined && !present(body.thinking)) {
    body.thinking = thinking.thinking
    if (thinking.effort !== undefined) fill(body, 'output_config', { effort: thinking.effort })
  }
  const prompt = content.system_prompt
  if (prompt !== null && !prependToField(body, 'system', prompt) && Array.isArray(body.system))
    body.system = [{ type: 'text', text: prompt }, ...(body.system as unknown[])]
}
