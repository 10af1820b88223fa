// Reasoning details: a model's thought as the gateway hands it to a client to send back on the next
// turn. Which kinds a model gives is decided by its author (the provider's own way, in the real
// document's ReasoningFormat names):
//   anthropic/*  reasoning.text with the thought and a signature           (anthropic-claude-v1)
//   google/*     reasoning.text, then reasoning.encrypted (the thought signature)  (google-gemini-v1)
//   openai/*     reasoning.summary (what `reasoning` says), then reasoning.encrypted   (openai-responses-v1)
//   x-ai/*       reasoning.text, then reasoning.encrypted                     (xai-responses-v1)
//   any other    reasoning.text, no signature                                 (unknown)
// Signatures and encrypted data are a hash of the model and the thought (never random), so a client
// that sends them back sends what it was given, and a test can check it.
import { createHash } from 'node:crypto'

export type ReasoningFormat = 'openai-responses-v1' | 'anthropic-claude-v1' | 'google-gemini-v1' | 'xai-responses-v1' | 'unknown'

export type ReasoningDetail =
  | { type: 'reasoning.text'; text: string; signature: string | null; id?: string; format: ReasoningFormat; index: number }
  | { type: 'reasoning.summary'; summary: string; id?: string; format: ReasoningFormat; index: number }
  | { type: 'reasoning.encrypted'; data: string; id?: string; format: ReasoningFormat; index: number }

const FORMATS: Record<string, ReasoningFormat> = {
  anthropic: 'anthropic-claude-v1',
  google: 'google-gemini-v1',
  openai: 'openai-responses-v1',
  'x-ai': 'xai-responses-v1',
}

/** The format a model's reasoning comes in, by its author (`openai/o3` is openai's). */
export const reasoningFormat = (modelId: string): ReasoningFormat => FORMATS[modelId.slice(0, modelId.indexOf('/'))] ?? 'unknown'

/** A thought's signature: fixed by the model and the thought, as a real one verifies them (Messages' thinking blocks too). */
export const reasoningSignature = (modelId: string, thought: string): string => createHash('sha256').update(`${modelId}\u0000${thought}`).digest('base64')

/**
 * A thought as the provider keeps it hidden: opaque, deterministic base64 (a hash chain of the model
 * and the thought, about as long as the thought), never decodable to the thought itself.
 */
export function encryptedReasoning(modelId: string, thought: string): string {
  const blocks = Math.max(2, Math.min(64, Math.ceil(thought.length / 32)))
  const parts: Buffer[] = []
  let seed = `encrypted\u0000${modelId}\u0000${thought}`
  for (let i = 0; i < blocks; i++) {
    const digest = createHash('sha256').update(seed).digest()
    parts.push(digest)
    seed = digest.toString('hex')
  }
  return Buffer.concat(parts).toString('base64')
}

/** An id for a reasoning item of openai's: `rs_` and a hash of the thought (the same in an answer and its stream). */
export const reasoningItemId = (modelId: string, thought: string): string =>
  `rs_${createHash('sha256').update(`id\u0000${modelId}\u0000${thought}`).digest('hex').slice(0, 32)}`

/** A thought's reasoning details, by its model's author (see the top of this file). */
export function reasoningDetails(modelId: string, thought: string): ReasoningDetail[] {
  const format = reasoningFormat(modelId)
  switch (format) {
    case 'anthropic-claude-v1':
      return [{ type: 'reasoning.text', text: thought, signature: reasoningSignature(modelId, thought), format, index: 0 }]
    case 'openai-responses-v1': {
      const id = reasoningItemId(modelId, thought)
      return [
        { type: 'reasoning.summary', summary: thought, id, format, index: 0 },
        { type: 'reasoning.encrypted', data: encryptedReasoning(modelId, thought), id, format, index: 0 },
      ]
    }
    case 'google-gemini-v1':
    case 'xai-responses-v1':
      return [
        { type: 'reasoning.text', text: thought, signature: null, format, index: 0 },
        { type: 'reasoning.encrypted', data: encryptedReasoning(modelId, thought), format, index: 1 },
      ]
    case 'unknown':
      return [{ type: 'reasoning.text', text: thought, signature: null, format, index: 0 }]
  }
}

/**
 * A thought's details as a stream gives them: each piece of the thought carries its part of the first
 * detail (text or summary; a signature with the last piece), then one delta carries the others
 * (encrypted data). Put together, they are reasoningDetails.
 */
export function reasoningDeltas(
  modelId: string,
  thought: string,
  pieces: readonly string[],
): Array<{ reasoning?: string; reasoning_details: ReasoningDetail[] }> {
  const [first, ...rest] = reasoningDetails(modelId, thought)
  if (pieces.length === 0) pieces = ['']
  const deltas: Array<{ reasoning?: string; reasoning_details: ReasoningDetail[] }> = pieces.map((piece, i) => {
    const last = i === pieces.length - 1
    const detail: ReasoningDetail =
      first!.type === 'reasoning.text'
        ? { ...first!, text: piece, signature: last ? first!.signature : null }
        : first!.type === 'reasoning.summary'
          ? { ...first!, summary: piece }
          : first!
    return { reasoning: piece, reasoning_details: [detail] }
  })
  if (rest.length > 0) deltas.push({ reasoning_details: rest })
  return deltas
}
