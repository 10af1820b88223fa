// The contract cases of presets. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { CHAT_MODEL, MESSAGES_MODEL, get, send, malformed, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'presets.list': { gateway: ['get', '/presets'] },
  'presets.get': { gateway: ['get', '/presets/{slug}'] },
  'presets.chat.create': { gateway: ['post', '/presets/{slug}/chat/completions'] },
  'presets.messages.create': { gateway: ['post', '/presets/{slug}/messages'] },
  'presets.responses.create': { gateway: ['post', '/presets/{slug}/responses'] },
  'presets.versions.list': { gateway: ['get', '/presets/{slug}/versions'] },
  'presets.versions.get': { gateway: ['get', '/presets/{slug}/versions/{version}'] },
}

/** A preset of the default account (slug `contract`), made from a Responses body. */
async function preset(emu: TestEmulator): Promise<string> {
  await send(emu, 'POST', '/api/v1/presets/contract/responses', { model: CHAT_MODEL, instructions: 'Be brief.' }, emu.keys.management)
  return 'contract'
}

export const cases: Case[] = [
  {
    operation: 'presets.chat.create',
    name: 'a preset from a chat body',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/presets/contract/chat/completions',
        { model: CHAT_MODEL, messages: [{ role: 'system', content: 'Be brief.' }], temperature: 0.7, reasoning: { effort: 'low' } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.chat.create',
    name: 'a temperature over 2',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/contract/chat/completions', { messages: [], temperature: 3 }, emu.keys.management),
  },
  {
    operation: 'presets.chat.create',
    name: 'a malformed body',
    status: 400,
    run: (emu) => malformed(emu, 'POST', '/api/v1/presets/contract/chat/completions', emu.keys.management),
  },
  ...authCases('presets.chat.create', (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/chat/completions', { messages: [] }, key), 'management'),
  {
    operation: 'presets.messages.create',
    name: 'a new version from a Messages body',
    status: 200,
    run: async (emu) =>
      send(
        emu,
        'POST',
        `/api/v1/presets/${await preset(emu)}/messages`,
        { model: MESSAGES_MODEL, max_tokens: 1024, system: 'Be brief.', messages: [], thinking: { type: 'enabled', budget_tokens: 64 } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.messages.create',
    name: 'no model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/contract/messages', { messages: [] }, emu.keys.management),
  },
  ...authCases(
    'presets.messages.create',
    (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/messages', { model: MESSAGES_MODEL, messages: [] }, key),
    'management',
  ),
  {
    operation: 'presets.responses.create',
    name: 'a preset from a Responses body',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/presets/contract/responses',
        { model: CHAT_MODEL, instructions: 'Be brief.', input: 'x', max_output_tokens: 100, reasoning: { effort: 'low', summary: 'auto' } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.responses.create',
    name: 'a slug with capitals',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/Contract/responses', { model: CHAT_MODEL }, emu.keys.management),
  },
  ...authCases('presets.responses.create', (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/responses', {}, key), 'management'),
  {
    operation: 'presets.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await preset(emu), get(emu, '/api/v1/presets?offset=0&limit=10', emu.keys.standard)),
  },
  { operation: 'presets.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/presets?limit=101', emu.keys.management) },
  ...authCases('presets.list', (emu, key) => get(emu, '/api/v1/presets', key), 'any'),
  { operation: 'presets.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}`, emu.keys.management) },
  { operation: 'presets.get', name: 'an unknown slug', status: 404, run: (emu) => get(emu, '/api/v1/presets/nope', emu.keys.management) },
  ...authCases('presets.get', (emu, key) => get(emu, '/api/v1/presets/nope', key), 'any'),
  {
    operation: 'presets.versions.list',
    name: 'the versions',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions`, emu.keys.standard),
  },
  { operation: 'presets.versions.list', name: 'an unknown slug', status: 404, run: (emu) => get(emu, '/api/v1/presets/nope/versions', emu.keys.management) },
  ...authCases('presets.versions.list', (emu, key) => get(emu, '/api/v1/presets/nope/versions', key), 'any'),
  {
    operation: 'presets.versions.get',
    name: 'one',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions/1`, emu.keys.management),
  },
  {
    operation: 'presets.versions.get',
    name: 'an unknown version',
    status: 404,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions/9`, emu.keys.management),
  },
  {
    operation: 'presets.versions.get',
    name: 'a version that is no number',
    status: 400,
    run: (emu) => get(emu, '/api/v1/presets/contract/versions/latest', emu.keys.management),
  },
  ...authCases('presets.versions.get', (emu, key) => get(emu, '/api/v1/presets/nope/versions/1', key), 'any'),
]
