// Presets through the official clients over real HTTP: @openrouter/sdk's seven preset operations
// (every answer passes its own validation, a 404 is its typed error), then the preset applied by the
// clients users call models with: openai (chat completions and Responses) and @anthropic-ai/sdk.
import Anthropic from '@anthropic-ai/sdk'
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const PIRATE_MODEL = 'anthropic/claude-sonnet-4'
const ARR = 'Arr, matey.'

describe('@openrouter/sdk 1.x', () => {
  it('creates from each API, reads, lists, lists versions and gets a version', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })

    const fromChat = await client.presets.createPresetsChatCompletions({
      slug: 'sdk-preset',
      chatRequest: {
        model: 'openai/gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'Hi' },
        ],
        temperature: 0.7,
      },
    })
    expect(fromChat.data).toMatchObject({ slug: 'sdk-preset', name: 'sdk-preset', status: 'active' })
    expect(fromChat.data.designatedVersion).toMatchObject({
      version: 1,
      systemPrompt: 'You are helpful.',
      config: { model: 'openai/gpt-4o-mini', temperature: 0.7 },
    })

    const fromMessages = await client.presets.createPresetsMessages({
      slug: 'sdk-preset',
      messagesRequest: { model: PIRATE_MODEL, maxTokens: 1024, system: 'Be terse.', messages: [{ role: 'user', content: 'Hi' }] },
    })
    expect(fromMessages.data.designatedVersion).toMatchObject({ version: 2, systemPrompt: 'Be terse.', config: { model: PIRATE_MODEL, max_tokens: 1024 } })

    const fromResponses = await client.presets.createPresetsResponses({
      slug: 'sdk-preset',
      responsesRequest: { model: 'openai/gpt-4o', instructions: 'Answer in French.', input: 'Hi' },
    })
    expect(fromResponses.data.designatedVersion).toMatchObject({ version: 3, systemPrompt: 'Answer in French.', config: { model: 'openai/gpt-4o' } })
    expect(fromResponses.data.designatedVersionId).toBe(fromResponses.data.designatedVersion!.id)

    const got = await client.presets.get({ slug: 'sdk-preset' })
    expect(got.data.designatedVersion!.version).toBe(3)
    const listed = await client.presets.list()
    expect(listed.result.totalCount).toBe(1)
    expect(listed.result.data[0]!.slug).toBe('sdk-preset')
    const versions = await client.presets.listVersions({ slug: 'sdk-preset' })
    expect(versions.result.data.map((v) => v?.version)).toEqual([1, 2, 3])
    const second = await client.presets.getVersion({ slug: 'sdk-preset', version: '2' })
    expect(second.data!.systemPrompt).toBe('Be terse.')

    const missing = await client.presets.get({ slug: 'nope' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(errors.NotFoundResponseError)
    expect((missing as errors.NotFoundResponseError).error.message).toBe('Preset nope not found')
  })
})

describe('a preset applied through the inference clients', () => {
  it('openai chat completions and Responses, and @anthropic-ai/sdk messages, answer with the preset model and system prompt', async () => {
    const emu = await listeningEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0].id as string
    expect((await emu.send('POST', `/_emulator/api/accounts/${account}/chat-fixtures`, { match: { system: 'pirate' }, answer: { content: ARR } })).status).toBe(
      201,
    )
    const sdk = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    await sdk.presets.createPresetsChatCompletions({
      slug: 'pirate',
      chatRequest: { model: PIRATE_MODEL, messages: [{ role: 'system', content: 'You are a pirate.' }] },
    })

    const openai = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const chat = await openai.chat.completions.create({ model: '@preset/pirate', messages: [{ role: 'user', content: 'Where is the treasure?' }] })
    expect(chat.model).toBe(PIRATE_MODEL)
    expect(chat.choices[0]!.message.content).toBe(ARR)

    const response = await openai.responses.create({ model: '@preset/pirate', input: 'Where is the treasure?' })
    expect(response.model).toBe(PIRATE_MODEL)
    expect(response.output_text).toBe(ARR)

    const anthropic = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const message = await anthropic.messages.create({
      model: '@preset/pirate',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Where is the treasure?' }],
    })
    expect(message.model).toBe(PIRATE_MODEL)
    expect(message.content[0]!.type === 'text' && message.content[0]!.text).toBe(ARR)

    const unknown = await openai.chat.completions.create({ model: '@preset/nope', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError)
    expect((unknown as InstanceType<typeof OpenAI.NotFoundError>).message).toBe('404 Preset nope not found')
  })
})
