// The contract cases of the Anthropic Messages API. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { MESSAGES_MODEL, auth, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'messages.create': { gateway: ['post', '/messages'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'messages.create 402':
    "no credits: the document declares no 402 for /messages; the gateway's 402, in Anthropic's envelope as billing_error (an enum value the document lists)",
}

export const cases: Case[] = [
  ...(() => {
    const messages = (emu: TestEmulator, body: Record<string, unknown>, key?: string) =>
      send(emu, 'POST', '/api/v1/messages', { model: MESSAGES_MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'hello' }], ...body }, key)
    const tool = { name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }
    const cases: Case[] = [
      {
        operation: 'messages.create',
        name: 'a conversation',
        status: 200,
        run: (emu) => messages(emu, { system: 'Be brief.', stop_sequences: ['zzz'] }, emu.keys.standard),
      },
      {
        operation: 'messages.create',
        name: 'thinking and a tool call',
        status: 200,
        run: (emu) => messages(emu, { thinking: { type: 'enabled', budget_tokens: 64 }, tools: [tool], tool_choice: { type: 'any' } }, emu.keys.standard),
      },
      {
        operation: 'messages.create',
        name: 'a tool result answered',
        status: 200,
        run: (emu) =>
          messages(
            emu,
            {
              tools: [tool],
              messages: [
                { role: 'user', content: 'look it up' },
                { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: 1 } }] },
                { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' }] },
              ],
            },
            emu.keys.standard,
          ),
      },
      { operation: 'messages.create', name: 'no messages', status: 400, run: (emu) => messages(emu, { messages: [] }, emu.keys.standard) },
      {
        operation: 'messages.create',
        name: 'a tool_result without tool_use_id',
        status: 400,
        run: (emu) => messages(emu, { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, emu.keys.standard),
      },
      { operation: 'messages.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/messages', emu.keys.standard) },
      ...authCases('messages.create', (emu, key) => messages(emu, {}, key), 'standard'),
      { operation: 'messages.create', name: 'no credits', status: 402, run: async (emu) => messages(emu, {}, await brokeAccountKey(emu)) },
      { operation: 'messages.create', name: 'an unknown model', status: 404, run: (emu) => messages(emu, { model: 'nobody/nothing' }, emu.keys.standard) },
      ...[429, 500, 503, 529].map((status) => ({
        operation: 'messages.create',
        name: `a ${status} fault (X-Emulator-Fault)`,
        status,
        run: (emu: TestEmulator) =>
          emu.request({
            method: 'POST',
            url: '/api/v1/messages',
            headers: { ...auth(emu.keys.standard), 'content-type': 'application/json', 'x-emulator-fault': String(status) },
            payload: { model: MESSAGES_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] },
          }),
      })),
    ]
    return cases
  })(),
  {
    operation: 'messages.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) =>
      send(emu, 'POST', '/api/v1/messages', { model: '@preset/nope', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
]
