// The contract cases of the Responses API. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { CHAT_MODEL, send, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'responses.create': { gateway: ['post', '/responses'] },
}

export const cases: Case[] = [
  {
    operation: 'responses.create',
    name: 'a string input',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'hello', instructions: 'Be brief.' }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'a function call',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/responses',
        {
          model: CHAT_MODEL,
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'x' }] }],
          tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { id: { type: 'integer' } } }, strict: true }],
          tool_choice: 'required',
        },
        emu.keys.standard,
      ),
  },
  {
    operation: 'responses.create',
    name: 'reasoning with a summary, cut at max_output_tokens',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/responses',
        { model: 'openai/o4-mini', input: 'why?', reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 40, metadata: { run: '1' } },
        emu.keys.standard,
      ),
  },
  {
    operation: 'responses.create',
    name: 'no input',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'an unknown model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: 'nobody/nothing', input: 'x' }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'responses.create',
    name: 'no endpoint matches the provider preferences',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x', provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  ...authCases('responses.create', (emu, key) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x' }, key), 'standard'),
  {
    operation: 'responses.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: `${CHAT_MODEL}@preset/nope`, input: 'x' }, emu.keys.standard),
  },
]
