// Answers are a pure function of what they are written from (text-answer.service.ts: the seed, the model and
// the request), so a request asked again (a test suite's, a retry's, a benchmark's) takes the answers
// written the first time instead of writing them again: faker, the tokenizer and the schema worker are
// most of a generated answer's cost. Nothing else decides an answer: fixtures and recordings answer
// before the engine writes anything, and the answer-length setting is part of the key.
// Bounded by characters (keys and answers); the least recently used entries go first.
import type { MakeFaker } from '../../core/faker.ts'
import { writeAnswers, type Answer, type AnswerRequest } from './text-answer.service.ts'
import type { SchemaFiller } from './text-schema-filler.service.ts'

/** Characters the cache holds at most, keys included (about twice as many bytes). */
export const ANSWER_CACHE_CHARS = 4 * 1024 * 1024
/** A request whose key is longer is written every time (its answers would crowd the others out). */
const LARGEST_KEY_CHARS = 64 * 1024

interface Entry {
  answers: readonly Answer[]
  chars: number
}

export interface AnswerCache {
  /** The answers to `request`, written now or taken from an earlier request that asked the same. */
  write(request: AnswerRequest, choices: number, makeFaker: MakeFaker, filler: SchemaFiller): Promise<Answer[]>
  /** Characters held now (keys and answers). */
  chars(): number
  clear(): void
}

export function createAnswerCache(maxChars = ANSWER_CACHE_CHARS): AnswerCache {
  const entries = new Map<string, Entry>()
  let held = 0
  return {
    async write(request, choices, makeFaker, filler) {
      const key = cacheKey(request, choices)
      if (key.length > LARGEST_KEY_CHARS) return writeAnswers(request, choices, makeFaker, filler)
      const hit = entries.get(key)
      if (hit) {
        // Most recently used last: the map's order is the eviction order.
        entries.delete(key)
        entries.set(key, hit)
        return [...hit.answers]
      }
      const answers = await writeAnswers(request, choices, makeFaker, filler)
      const entry = { answers: answers.map(frozen), chars: key.length + answers.reduce((n, a) => n + answerChars(a), 0) }
      if (entry.chars > maxChars / 8 || entries.has(key)) return answers
      entries.set(key, entry)
      held += entry.chars
      for (const [oldest, { chars }] of entries) {
        if (held <= maxChars) break
        entries.delete(oldest)
        held -= chars
      }
      return answers
    },
    chars: () => held,
    clear() {
      entries.clear()
      held = 0
    },
  }
}

/** Everything an answer is written from, in a fixed order (the schemas' fitted forms follow from the tools, format and bound). */
function cacheKey(request: AnswerRequest, choices: number): string {
  return JSON.stringify([
    request.seed,
    request.model,
    request.requestSeed,
    request.messages,
    request.tools,
    request.toolChoice,
    request.parallel,
    request.format,
    request.maxTokens,
    request.stop,
    request.answerTokens,
    request.reasoningTokens,
    choices,
  ])
}

const answerChars = (answer: Answer): number =>
  (answer.content?.length ?? 0) + (answer.reasoning?.length ?? 0) + answer.toolCalls.reduce((n, call) => n + call.function.arguments.length + 64, 0) + 64

/** Shared by every request that asks the same: nothing may change it. */
function frozen(answer: Answer): Answer {
  for (const call of answer.toolCalls) Object.freeze(Object.freeze(call).function)
  Object.freeze(answer.toolCalls)
  return Object.freeze(answer)
}
