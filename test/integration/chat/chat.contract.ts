// The contract cases of chat and text completions. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { MODEL, CHAT_MODEL, send, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'chat.create': { gateway: ['post', '/chat/completions'] },
  'completions.create': { own: 'the legacy text completion, absent from the real document; the AI SDK provider and openai still call it' },
}

/** A preset of the default account (slug `contract`), made from a Responses body. */
async function preset(emu: TestEmulator): Promise<string> {
  await send(emu, 'POST', '/api/v1/presets/contract/responses', { model: CHAT_MODEL, instructions: 'Be brief.' }, emu.keys.management)
  return 'contract'
}

export const cases: Case[] = [
  {
    operation: 'chat.create',
    name: 'a conversation',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'a tool call',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/chat/completions',
        { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' },
        emu.keys.standard,
      ),
  },
  {
    operation: 'chat.create',
    name: 'no messages',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'an embeddings model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'no credits',
    status: 402,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, await brokeAccountKey(emu)),
  },
  ...authCases(
    'chat.create',
    (emu, key) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, key),
    'standard',
  ),
  {
    operation: 'completions.create',
    name: 'a prompt',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/completions', { model: CHAT_MODEL, prompt: 'Once upon a time' }, emu.keys.standard),
  },
  {
    operation: 'completions.create',
    name: 'no prompt',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/completions', { model: CHAT_MODEL }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'an image asked for',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/chat/completions',
        { model: 'google/gemini-2.5-flash-image', modalities: ['image', 'text'], messages: [{ role: 'user', content: 'a red panda' }] },
        emu.keys.standard,
      ),
  },
  {
    operation: 'chat.create',
    name: 'a model named by a preset',
    status: 200,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/chat/completions', { model: `@preset/${await preset(emu)}`, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: '@preset/nope', messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
]
