// The contract cases of generations (metadata, content, feedback). Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { CHAT_MODEL, get, send, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'generation.get': { gateway: ['get', '/generation'] },
  'generation.content': { gateway: ['get', '/generation/content'] },
  'generation.feedback': { gateway: ['post', '/generation/feedback'] },
}

const RERANK_MODEL = 'cohere/rerank-v3.5'
/** A chat completion's generation id. */
const chatGeneration = async (emu: TestEmulator): Promise<string> =>
  (await send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] }, emu.keys.standard)).body.id

export const cases: Case[] = [
  {
    operation: 'generation.get',
    name: 'a past chat',
    status: 200,
    run: async (emu) => {
      const chat = await send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard)
      return get(emu, `/api/v1/generation?id=${(chat.body as { id: string }).id}`, emu.keys.standard)
    },
  },
  { operation: 'generation.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/generation?id=gen-0-nothing', emu.keys.standard) },
  ...authCases('generation.get', (emu, key) => get(emu, '/api/v1/generation?id=gen-0-nothing', key), 'any'),

  {
    operation: 'generation.content',
    name: "a chat's prompt and answer",
    status: 200,
    run: async (emu) => get(emu, `/api/v1/generation/content?id=${await chatGeneration(emu)}`, emu.keys.standard),
  },
  {
    operation: 'generation.content',
    name: 'an unknown id',
    status: 404,
    run: (emu) => get(emu, '/api/v1/generation/content?id=gen-0-nothing', emu.keys.standard),
  },
  ...authCases('generation.content', (emu, key) => get(emu, '/api/v1/generation/content?id=gen-0-nothing', key), 'any'),
  {
    operation: 'generation.feedback',
    name: 'feedback on a chat',
    status: 200,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: await chatGeneration(emu), category: 'latency', comment: 'slow' }, emu.keys.management),
  },
  {
    operation: 'generation.feedback',
    name: 'an unknown category',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'gen-0-nothing', category: 'rude' }, emu.keys.management),
  },
  {
    operation: 'generation.feedback',
    name: 'an unknown generation',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'gen-0-nothing', category: 'other' }, emu.keys.management),
  },
  ...authCases(
    'generation.feedback',
    (emu, key) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'x', category: 'other' }, key),
    'management',
  ),
  {
    operation: 'generation.get',
    name: 'a past rerank',
    status: 200,
    run: async (emu) => {
      const ranked = await send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
      return get(emu, `/api/v1/generation?id=${(ranked.body as { id: string }).id}`, emu.keys.standard)
    },
  },
]
