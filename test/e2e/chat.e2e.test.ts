// The Playground and the chat transcript in a real browser: a streamed chat sent with the seeded key
// shows its answer and continues as a conversation, and the Requests view shows that request's
// transcript (the assembled text, the tokens); a fault's error chunk and a 429 show the gateway's
// message; a non-streamed request with a forced tool call shows the call and its arguments.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

const MODEL = 'openai/gpt-4o-mini'
const SYSTEM = 'You answer in one short paragraph.'

interface ChatJson {
  choices: Array<{ message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }>
  usage: { prompt_tokens: number; completion_tokens: number; cost: number }
}

describe.skipIf(!hasChromium)('chat in the inspector', () => {
  afterAll(closeBrowser)

  it('streams a chat in the Playground, continues it, and shows its transcript in the Requests view', async () => {
    const { emu, page, screenshot } = await openUi('playground')
    page.setDefaultTimeout(10_000)
    const chat = async (messages: unknown[]): Promise<ChatJson> => {
      const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages }),
      })
      expect(res.status).toBe(200)
      return (await res.json()) as ChatJson
    }

    // The seeded account and its standard key are chosen by default; the model is picked from the catalog.
    const model = page.getByLabel('Model')
    await model.locator(`option[value="${MODEL}"]`).waitFor({ state: 'attached' })
    await model.selectOption(MODEL)
    expect(await page.getByLabel('Key').locator('option:checked').textContent()).toContain('(standard)')
    expect(await page.getByLabel('Stream').isChecked()).toBe(true)
    await page.getByLabel('System prompt').fill(SYSTEM)
    await page.getByLabel('Your message').fill('Tell me about sea otters and kelp forests')
    await page.getByRole('button', { name: 'Send' }).click()

    const conversation = page.getByRole('list', { name: 'Conversation' })
    const answers = conversation.getByRole('listitem', { name: 'assistant message' })
    await answers.first().waitFor()
    const firstAnswer = ((await answers.first().textContent()) ?? '').replace(/^assistant/, '')
    // Answers are deterministic: the same conversation sent whole (not streamed) gives the same text and tokens.
    const firstMessages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'Tell me about sea otters and kelp forests' },
    ]
    const expected = await chat(firstMessages)
    expect(firstAnswer).toBe(expected.choices[0]!.message.content)
    const facts = page.getByRole('definition').filter({ hasText: ' prompt + ' })
    expect(await facts.textContent()).toBe(`${expected.usage.prompt_tokens} prompt + ${expected.usage.completion_tokens} completion`)
    expect(await page.getByLabel('Answer facts').textContent()).toContain('Streamedyes')
    await screenshot('playground-streamed')

    // The conversation continues: the answer went back with the next message.
    await page.getByLabel('Your message').fill('And what do they eat?')
    await page.getByRole('button', { name: 'Send' }).click()
    await answers.nth(1).waitFor()
    const secondAnswer = ((await answers.nth(1).textContent()) ?? '').replace(/^assistant/, '')
    const second = await chat([...firstMessages, { role: 'assistant', content: firstAnswer }, { role: 'user', content: 'And what do they eat?' }])
    expect(secondAnswer).toBe(second.choices[0]!.message.content)
    expect(await conversation.getByRole('listitem').count()).toBe(4)
    await screenshot('playground-conversation')

    // The link opens that request in the Requests view, with its transcript.
    await page.getByRole('link', { name: 'Open this request in the Requests view' }).click()
    const detail = page.getByRole('region', { name: 'Request detail' })
    const transcript = detail.getByRole('region', { name: 'Transcript' })
    await transcript.waitFor()
    const sent = transcript.getByRole('list', { name: 'Conversation' }).getByRole('listitem')
    expect(await sent.count()).toBe(4)
    expect(await sent.nth(0).getAttribute('aria-label')).toBe('system message')
    expect(await sent.nth(2).textContent()).toBe(`assistant${firstAnswer}`)
    const answer = transcript.getByRole('list', { name: 'Answer' }).getByRole('listitem', { name: 'Answer' })
    expect(await answer.textContent()).toBe(`assistantstop${secondAnswer}`)
    const completionFacts = (await transcript.getByLabel('Completion facts').textContent()) ?? ''
    expect(completionFacts).toContain(`Tokens${second.usage.prompt_tokens} prompt + ${second.usage.completion_tokens} completion`)
    expect(completionFacts).toContain(`Model${MODEL}`)
    expect(completionFacts).toContain('Finish reasonstop')
    expect(completionFacts).toMatch(/Generation idgen-\d+-\w{20}/)
    expect(completionFacts).toMatch(/Timing[\d.,]+ ms, streamed/)
    // The selected row is the link's request, and the address names it.
    expect(await page.getByRole('row', { selected: true }).textContent()).toContain('chat.create')
    expect(page.url()).toMatch(/#\/requests\/\d+$/)
    await screenshot('requests-chat-transcript')
  })

  it("shows a fault's error chunk and a 429 with the gateway's message", async () => {
    const { emu, page, screenshot } = await openUi('playground')
    page.setDefaultTimeout(10_000)
    const addFault = async (action: Record<string, unknown>) => {
      const res = await fetch(`${emu.url}/_emulator/api/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match: { operation: 'chat.create' }, action, remaining: 1 }),
      })
      expect(res.status).toBe(201)
    }
    await page.getByLabel('Model').locator(`option[value="${MODEL}"]`).waitFor({ state: 'attached' })
    await page.getByLabel('Model').selectOption(MODEL)

    // A stream that breaks after a few chunks: what came, then the error chunk's message.
    await addFault({ status: 502, stream: { after_chunks: 3 } })
    await page.getByLabel('Your message').fill('Tell me about sea otters')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.getByRole('alert').filter({ hasText: 'Error 502: Provider returned error' }).waitFor()
    const partial = page.getByRole('list', { name: 'Answer in progress' }).getByRole('listitem')
    expect(((await partial.textContent()) ?? '').length).toBeGreaterThan('assistant'.length)
    // The message stays to be sent again; nothing joined the conversation.
    expect(await page.getByLabel('Your message').inputValue()).toBe('Tell me about sea otters')
    expect(await page.getByRole('list', { name: 'Conversation' }).count()).toBe(0)
    await screenshot('playground-error-chunk')

    // A 429 before anything is sent: the JSON error's message.
    await addFault({ status: 429 })
    await page.getByRole('button', { name: 'Send' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: /^Error 429: / })
      .waitFor()

    // The error chunk's request shows the error in its transcript too.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Requests' }).click()
    await page.getByRole('row').filter({ hasText: 'chat.create' }).filter({ hasText: '200' }).click()
    const transcript = page.getByRole('region', { name: 'Transcript' })
    await transcript.getByRole('alert').filter({ hasText: 'Error 502: Provider returned error' }).waitFor()
  })

  it('shows a non-streamed tool call and its arguments in the transcript', async () => {
    const { emu, page, screenshot } = await openUi('requests')
    page.setDefaultTimeout(10_000)
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
            required: ['city', 'days'],
          },
        },
      },
    ]
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Oslo this week?' }], tools, tool_choice: 'required' }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as ChatJson
    const call = body.choices[0]!.message.tool_calls![0]!

    await page.getByRole('row').filter({ hasText: 'chat.create' }).click()
    const transcript = page.getByRole('region', { name: 'Transcript' })
    const toolCall = transcript.getByRole('list', { name: 'Answer' }).getByRole('group', { name: 'Tool call get_weather' })
    await toolCall.waitFor()
    expect(await toolCall.textContent()).toContain(call.id)
    expect(await toolCall.getByLabel('Arguments of get_weather').textContent()).toBe(JSON.stringify(JSON.parse(call.function.arguments), null, 2))
    const completionFacts = (await transcript.getByLabel('Completion facts').textContent()) ?? ''
    expect(completionFacts).toContain('Finish reasontool_calls')
    expect(completionFacts).toContain('not streamed')
    expect(await transcript.textContent()).toContain('Tools offered: get_weather (tool_choice required)')
    await screenshot('requests-tool-call')
  })
})
