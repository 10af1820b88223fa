// Skimming a JSON answer too large to hold (recordings-skim.service.ts): whatever pieces the bytes arrive in,
// the skeleton holds exactly the short scalars at most three deep, as JSON.parse reads them, and
// nothing else (long strings, vectors, deeper values); what bills an answer is read from it.
import { describe, expect, it } from 'vitest'
import { textFromJson } from '../../../src/emulator/modules/recordings/recordings-answers.service.ts'
import { chatUpstream } from '../../../src/emulator/modules/chat/chat-upstream.service.ts'
import { JsonSkimmer } from '../../../src/emulator/modules/recordings/recordings-skim.service.ts'

/** A small seeded generator: the same documents and splits every run. */
function rng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** What the skimmer should keep of `value`: scalars at most 3 deep, strings of at most 1024 bytes. */
function expected(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {}
  for (const [key, child] of Object.entries(value)) {
    if (depth + 1 > 3) continue
    if (typeof child === 'string' && Buffer.byteLength(JSON.stringify(child).slice(1, -1)) > 1024) continue
    if (child !== null && typeof child === 'object') {
      const kept = expected(child, depth + 1) as object
      if (Object.keys(kept).length > 0) (out as Record<string, unknown>)[key] = kept
    } else (out as Record<string, unknown>)[key] = child
  }
  return out
}

/** Arrays as the skeleton has them: sparse where items were passed over, so compared by their entries. */
const entries = (value: unknown): unknown =>
  value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, entries(v)])) : value

function skim(text: string, random: () => number): unknown {
  const bytes = Buffer.from(text)
  const skimmer = new JsonSkimmer()
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(random() * 7)
    skimmer.push(bytes.subarray(at, at + size))
    at += size
  }
  return skimmer.skeleton()
}

function document(random: () => number, depth = 0): unknown {
  const pick = random()
  if (depth > 4 || pick < 0.35) {
    const kind = Math.floor(random() * 7)
    if (kind === 0) return null
    if (kind === 1) return random() < 0.5
    if (kind === 2) return Math.round((random() - 0.5) * 1e6) / 100
    if (kind === 3) return 'x"\\\u00e9\n\u0001🙂'.repeat(Math.floor(random() * 4))
    if (kind === 4) return 'long '.repeat(300)
    if (kind === 5) return -1.5e-7
    return `s${Math.floor(random() * 100)}`
  }
  if (pick < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => document(random, depth + 1))
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}"\\${depth}`, document(random, depth + 1)]))
}

describe('JsonSkimmer', () => {
  it('keeps the short scalars at most three deep, whatever pieces the bytes arrive in', () => {
    const random = rng(7)
    for (let i = 0; i < 300; i++) {
      const value = { root: document(random), ...(i % 2 === 0 && { usage: { cost: 0.5, prompt_tokens: 3 } }) }
      const text = JSON.stringify(value, null, i % 3 === 0 ? 2 : undefined)
      expect(entries(skim(text, random)), text).toEqual(entries(expected(value)))
    }
  })

  it('reads what bills a large answer, and passes over its text and vectors', () => {
    const answer = {
      id: 'gen-123',
      model: 'openai/gpt-4o-mini',
      provider: 'OpenAI',
      choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(400_000) }, finish_reason: 'length' }],
      data: [{ embedding: Array.from({ length: 5000 }, (_, i) => i / 7) }],
      usage: { prompt_tokens: 12, completion_tokens: 400_000, cost: 1.25, completion_tokens_details: { reasoning_tokens: 7 } },
    }
    const skeleton = skim(JSON.stringify(answer), rng(3)) as Record<string, unknown>
    expect(skeleton).toEqual({
      id: 'gen-123',
      model: 'openai/gpt-4o-mini',
      provider: 'OpenAI',
      choices: [{ index: 0, finish_reason: 'length' }],
      usage: { prompt_tokens: 12, completion_tokens: 400_000, cost: 1.25, completion_tokens_details: { reasoning_tokens: 7 } },
    })
    expect(textFromJson(chatUpstream, skeleton)).toMatchObject({
      model: 'openai/gpt-4o-mini',
      provider: 'OpenAI',
      choices: [{ content: null, finish_reason: 'length' }],
      usage: { prompt_tokens: 12, completion_tokens: 400_000, reasoning_tokens: 7, cost: 1.25 },
    })
  })

  it('stays bounded on hostile input: deep nesting, endless numbers, no JSON at all', () => {
    const deep = new JsonSkimmer()
    deep.push(Buffer.from(`{"a":${'['.repeat(1_000_000)}`))
    deep.push(Buffer.from(`${']'.repeat(1_000_000)},"model":"m"}`))
    expect(deep.skeleton()).toEqual({ model: 'm' })
    const number = new JsonSkimmer()
    number.push(Buffer.from('{"cost":'))
    for (let i = 0; i < 1000; i++) number.push(Buffer.from('1'.repeat(1000)))
    number.push(Buffer.from(',"model":"m"}'))
    expect(number.skeleton()).toEqual({ model: 'm' })
    const garbage = new JsonSkimmer()
    garbage.push(Buffer.from('root:x:0:0:root:/root:/bin/bash'))
    expect(garbage.skeleton()).toEqual({})
  })
})
