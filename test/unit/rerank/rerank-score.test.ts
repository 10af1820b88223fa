// The pure parts of rerank: cosine similarity mapped to a relevance score, the ranking, and what a
// request is billed for (chunks and search units).
import { describe, expect, it } from 'vitest'
import { maxQueryTokens, measure } from '../../../src/emulator/modules/rerank/rerank.input.ts'
import { rank, relevanceOf } from '../../../src/emulator/modules/rerank/rerank-score.service.ts'

describe('relevanceOf', () => {
  it('maps similarity onto [0, 1], rising with it, unrelated texts near 0 and the same text near 1', () => {
    const similarities = [-1, -0.2, 0, 0.15, 0.3, 0.45, 0.6, 0.8, 1]
    const scores = similarities.map(relevanceOf)
    for (const score of scores) {
      expect(score).toBeGreaterThanOrEqual(0)
      expect(score).toBeLessThanOrEqual(1)
    }
    expect(scores).toEqual([...scores].sort((a, b) => a - b))
    expect(new Set(scores).size).toBe(scores.length)
    expect(relevanceOf(0.45)).toBe(0.5)
    expect(relevanceOf(0.15)).toBeLessThan(0.1)
    expect(relevanceOf(1)).toBeGreaterThan(0.98)
  })

  it('rounds to 8 decimals: pinned values', () => {
    expect([0, 0.15, 0.45, 0.7, 1].map(relevanceOf)).toEqual([0.01824105, 0.03846154, 0.5, 0.9472136, 0.98756643])
  })
})

describe('rank', () => {
  const query = [1, 0]
  const docs = [
    [0, 1],
    [1, 0],
    [1, 1],
    [0, 1],
    [1, 0],
  ]

  it('orders by score, ties by index, and keeps the first topN', () => {
    expect(rank(query, docs, 5).map((r) => r.index)).toEqual([1, 4, 2, 0, 3])
    expect(rank(query, docs, 2).map((r) => r.index)).toEqual([1, 4])
    const all = rank(query, docs, 5)
    expect(all[0]!.relevance_score).toBe(all[1]!.relevance_score)
    expect(all[3]!.relevance_score).toBe(all[4]!.relevance_score)
  })
})

describe('measure', () => {
  it('reads each document with the query, in chunks of what the context leaves, and bills 100 chunks a search unit', () => {
    // Context 4096: a chunk holds 4096 - 4 - 10 = 4082 document tokens beside a 10-token query.
    expect(measure(10, [5, 7], 4096)).toEqual({ chunks: 2, searchUnits: 1, totalTokens: 10 + 5 + 10 + 7 })
    expect(measure(10, [4082], 4096)).toEqual({ chunks: 1, searchUnits: 1, totalTokens: 4092 })
    expect(measure(10, [4083], 4096)).toEqual({ chunks: 2, searchUnits: 1, totalTokens: 20 + 4083 })
    expect(
      measure(
        1,
        Array.from({ length: 100 }, () => 1),
        4096,
      ).searchUnits,
    ).toBe(1)
    expect(
      measure(
        1,
        Array.from({ length: 101 }, () => 1),
        4096,
      ).searchUnits,
    ).toBe(2)
  })

  it("bounds the query by Cohere's 2048 tokens, leaving room for a document in a small context", () => {
    expect(maxQueryTokens(4096)).toBe(2048)
    expect(maxQueryTokens(32_768)).toBe(2048)
    expect(maxQueryTokens(1000)).toBe(995)
    expect(maxQueryTokens(3)).toBe(1)
  })
})
