// Hand-written recordings for the replay tests: folders made per test (and removed after it), and the
// files every test starts from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { onTestFinished } from 'vitest'

export const FORMAT = 'gateway-emulator.recording/1'
export const MODEL = 'openai/gpt-4o-mini'
export const SYSTEM = 'Answer in one word.'
export const QUESTION = 'What is the capital of France?'

/** A folder holding `files` (name -> JSON value, or raw text), removed when the test ends. */
export function folderWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-replay-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  writeFiles(dir, files)
  return dir
}

export function writeFiles(dir: string, files: Record<string, unknown>): void {
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`)
  }
}

/** One recorded conversation: a system prompt and a question, answered "Paris." at a recorded cost. */
export const PARIS = {
  format: FORMAT,
  operation: 'chat.create',
  request: {
    model: MODEL,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ],
    max_tokens: 100,
  },
  text: {
    choices: [{ content: 'Paris.', finish_reason: 'stop' }],
    model: MODEL,
    provider: 'OpenAI',
    usage: { prompt_tokens: 24, completion_tokens: 2, cost: 0.0125 },
    timing: { first_token_ms: 420, tokens_per_second: 80 },
  },
} as const

/** A recorded embeddings answer: the vectors as the upstream sent them. */
export const EMBEDDING = {
  format: FORMAT,
  operation: 'embeddings.create',
  request: { model: 'openai/text-embedding-3-small', input: 'lighthouse' },
  raw: {
    status: 200,
    content_type: 'application/json',
    json: {
      id: 'gen-emb-1770000000-upstream',
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.125, -0.5, 0.25] }],
      model: 'text-embedding-3-small',
      provider: 'OpenAI',
      usage: { prompt_tokens: 2, total_tokens: 2, cost: 0.0004 },
    },
    model: 'openai/text-embedding-3-small',
    provider: 'OpenAI',
    cost: 0.0004,
  },
} as const
