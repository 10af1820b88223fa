// The answer cache (answer-cache.ts): a request asked again takes the answers written the first time
// (the same objects, frozen), anything an answer is written from makes another entry, and the cache
// never holds more characters than its bound.
import { beforeAll, describe, expect, it } from 'vitest'
import { loadFaker, type MakeFaker } from '../../../src/emulator/core/faker.ts'
import { loadTokenizer } from '../../../src/emulator/core/tokens.ts'
import { createAnswerCache } from '../../../src/emulator/modules/text/text-answer-cache.service.ts'
import { writeAnswers, type AnswerRequest } from '../../../src/emulator/modules/text/text-answer.service.ts'
import { parseMessages } from '../../../src/emulator/modules/text/text.input.ts'
import { SchemaFiller } from '../../../src/emulator/modules/text/text-schema-filler.service.ts'

let makeFaker: MakeFaker
beforeAll(async () => {
  ;[makeFaker] = await Promise.all([loadFaker(), loadTokenizer()])
})

/** A filler for requests without schemas: it is never asked for a value. */
const noSchemas = Object.assign(Object.create(SchemaFiller.prototype) as SchemaFiller, {
  fill: (batch: readonly unknown[]) => (batch.length === 0 ? Promise.resolve([]) : Promise.reject(new Error('no schema should be filled'))),
})

const request = (text: string, fields: Partial<AnswerRequest> = {}): AnswerRequest => ({
  seed: 1,
  model: 'openai/gpt-4o-mini',
  requestSeed: null,
  messages: parseMessages([{ role: 'user', content: text }]),
  tools: [],
  toolChoice: { kind: 'none' },
  format: { kind: 'text' },
  parallel: true,
  maxTokens: 4096,
  stop: [],
  answerTokens: 60,
  reasoningTokens: 0,
  fields: { tool: (i) => `tools[${i}]`, format: 'format' },
  fitted: { tools: new Map(), format: null },
  ...fields,
})

describe('the answer cache', () => {
  it('answers a request asked again with the answers written the first time, frozen', async () => {
    const cache = createAnswerCache()
    const first = await cache.write(request('Tell me about lighthouses'), 2, makeFaker, noSchemas)
    const again = await cache.write(request('Tell me about lighthouses'), 2, makeFaker, noSchemas)
    expect(again[0]).toBe(first[0])
    expect(again[1]).toBe(first[1])
    expect(Object.isFrozen(again[0])).toBe(true)
    // What the engine would have written anyway.
    expect(again).toEqual(await writeAnswers(request('Tell me about lighthouses'), 2, makeFaker, noSchemas))
    expect(cache.chars()).toBeGreaterThan(0)
  })

  it('keeps apart requests that differ in anything their answers are written from', async () => {
    const cache = createAnswerCache()
    const base = await cache.write(request('Tell me about lighthouses'), 1, makeFaker, noSchemas)
    for (const other of [
      request('Tell me about harbours'),
      request('Tell me about lighthouses', { seed: 2 }),
      request('Tell me about lighthouses', { requestSeed: 7 }),
      request('Tell me about lighthouses', { model: 'openai/gpt-4o' }),
      request('Tell me about lighthouses', { answerTokens: 200 }),
      request('Tell me about lighthouses', { maxTokens: 5 }),
    ]) {
      const answers = await cache.write(other, 1, makeFaker, noSchemas)
      expect(answers[0]).not.toBe(base[0])
      expect(answers).toEqual(await writeAnswers(other, 1, makeFaker, noSchemas))
    }
  })

  it('holds no more characters than its bound, dropping the least recently used first', async () => {
    const cache = createAnswerCache(4_000)
    const kept = await cache.write(request('topic 0'), 1, makeFaker, noSchemas)
    const early = await cache.write(request('topic 1'), 1, makeFaker, noSchemas)
    for (let i = 2; i < 40; i++) {
      await cache.write(request(`topic ${i}`), 1, makeFaker, noSchemas)
      // Used again each time: the most recently used stays.
      expect(await cache.write(request('topic 0'), 1, makeFaker, noSchemas)).toEqual([kept[0]])
      expect(cache.chars()).toBeLessThanOrEqual(4_000)
    }
    expect((await cache.write(request('topic 0'), 1, makeFaker, noSchemas))[0]).toBe(kept[0])
    // Dropped long ago: written again, the same answer in a new object.
    const rewritten = await cache.write(request('topic 1'), 1, makeFaker, noSchemas)
    expect(rewritten[0]).not.toBe(early[0])
    expect(rewritten).toEqual(early)
    cache.clear()
    expect(cache.chars()).toBe(0)
  })
})
