// The Fixtures view in a real browser: a text rule written through the form, tried in the test panel,
// then answering a real chat request with the seeded standard key, its hit counted live; a bad regular
// expression refused with the field's message; then a tool-call rule, a rule added by a script, moving,
// editing, deleting and clearing them.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

interface Rule {
  id: string
  name: string | null
  position: number
  hits: number
  remaining: number | null
}

describe.skipIf(!hasChromium)('chat fixtures in the inspector', () => {
  afterAll(closeBrowser)

  it('writes a text rule, tests it, sees it answer a chat request and count the hit, and shows a bad regex', async () => {
    const { emu, page, screenshot } = await openUi('fixtures')
    page.setDefaultTimeout(10_000)
    const [account] = ((await (await fetch(`${emu.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }).data
    await page.getByText('No chat fixtures').waitFor()
    expect(await page.getByLabel('Account').inputValue()).toBe(account!.id)

    // Write the rule: the next two requests whose last user message mentions a refund.
    const editor = page.getByRole('region', { name: 'Write a rule' })
    await editor.getByLabel('Name (optional)').fill('refund')
    await editor.getByLabel('Last user message contains').fill('refund')
    await editor.getByLabel('Answer text').fill('Your refund is on its way.')
    await editor.getByLabel('Answer the next N requests').fill('2')
    // The model field offers the catalog's text models.
    expect(
      await page.locator(`datalist#${await editor.getByLabel('Model (* = anything)').getAttribute('list')} option[value="openai/gpt-4o-mini"]`).count(),
    ).toBe(1)
    await editor.getByRole('button', { name: 'Create rule' }).click()
    const explanation = 'Answers "Your refund is on its way." when the last user message contains "refund", the next 2 times.'
    await editor.getByRole('status').getByText(`Created: ${explanation}`).waitFor()
    const rules = page.getByRole('list', { name: 'Chat fixtures' })
    await rules.getByText(explanation).waitFor()
    // The rule by its name (its explanation follows its remaining count).
    const rule = rules.getByRole('listitem').filter({ has: page.getByText('refund', { exact: true }) })
    await rule.getByText('0 hits').waitFor()
    await rule.getByText('2 left').waitFor()
    expect(await editor.getByLabel('Answer text').inputValue()).toBe('')

    // The test panel: a matching request gets the rule, another one the generated answer and the reason.
    const tester = page.getByRole('region', { name: 'Test a request' })
    await tester.getByLabel('Last user message').fill('Where is my REFUND?')
    await tester.getByRole('button', { name: 'Test' }).click()
    const result = tester.getByRole('region', { name: 'Test result' })
    await result.getByText(`Rule 1 answers: ${explanation}`).waitFor()
    await tester.getByLabel('Last user message').fill('Hello there')
    await tester.getByRole('button', { name: 'Test' }).click()
    await result.getByText('No rule answers: the request gets a generated answer.').waitFor()
    await result.getByRole('row').filter({ hasText: 'refund' }).getByText('Not used: the last user message does not contain "refund"').waitFor()
    // Testing used nothing.
    await rule.getByText('0 hits').waitFor()

    // A chat request with the seeded standard key gets the scripted answer; the count follows live.
    const chat = async (content: string) => {
      const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }] }),
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message
    }
    expect((await chat('Where is my refund?')).content).toBe('Your refund is on its way.')
    await rule.getByText('1 hit', { exact: true }).waitFor()
    await rule.getByText('1 left').waitFor()
    await rule.getByText('Answers "Your refund is on its way." when the last user message contains "refund", the next time.').waitFor()
    await screenshot('fixtures-view')

    // A regular expression that does not compile: the emulator's 400, under the field it names.
    await editor.getByLabel('Last user message matches (regex)').fill('order #(\\d+')
    await editor.getByLabel('Answer text').fill('Your order is on its way.')
    await editor.getByRole('button', { name: 'Create rule' }).click()
    const regex = editor.getByLabel('Last user message matches (regex)')
    await editor
      .getByRole('alert')
      .getByText(/^Field `match\.last_user_regex` is not a valid regular expression/)
      .waitFor()
    expect(await regex.getAttribute('aria-invalid')).toBe('true')
    expect(await regex.evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true)
    await screenshot('fixtures-bad-regex')
    // Fixed, it is accepted and goes last.
    await regex.fill('order #(\\d+)')
    await editor.getByRole('button', { name: 'Create rule' }).click()
    await rules.getByText('Answers "Your order is on its way." when the last user message matches /order #(\\d+)/i.').waitFor()
    expect(await editor.getByRole('alert').count()).toBe(0)
    const listed = ((await (await fetch(`${emu.url}/_emulator/api/accounts/${account!.id}/chat-fixtures`)).json()) as { data: Rule[] }).data
    expect(listed.map((r) => [r.name, r.position, r.hits])).toEqual([
      ['refund', 0, 1],
      [null, 1, 0],
    ])

    // The second refund request uses the rule up; "Again" starts its count anew.
    expect((await chat('Refund please')).content).toBe('Your refund is on its way.')
    await rule.getByText('used up', { exact: true }).waitFor()
    await rule.getByRole('button', { name: 'Answer 2 times again: refund' }).click()
    await rule.getByText('2 left').waitFor()
    await rule.getByText('2 hits').waitFor()
  })

  it('writes a tool-call rule, follows a rule added by a script, and moves, edits, deletes and clears them', async () => {
    const { emu, page, screenshot } = await openUi('fixtures')
    page.setDefaultTimeout(10_000)
    const [account] = ((await (await fetch(`${emu.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }).data
    const api = `${emu.url}/_emulator/api/accounts/${account!.id}/chat-fixtures`
    await page.getByText('No chat fixtures').waitFor()

    // Tool calls, for requests that carry the X-Emulator-Fixture header: two rows, one removed again.
    const editor = page.getByRole('region', { name: 'Write a rule' })
    await editor.getByLabel('Name (optional)').fill('weather')
    await editor.getByLabel('X-Emulator-Fixture header').fill('weather-path')
    await editor.getByLabel('Tool calls').check()
    await editor.getByLabel('Tool call 1: name').fill('get_weather')
    await editor.getByLabel('Arguments (JSON)').fill('{"city":"Oslo"}')
    await editor.getByRole('button', { name: 'Add a tool call' }).click()
    await editor.getByLabel('Tool call 2: name').fill('get_time')
    // Arguments that are not JSON: the emulator names the row.
    await editor.getByRole('group', { name: 'Tool call 2' }).getByLabel('Arguments (JSON)').fill('{city')
    await editor.getByRole('button', { name: 'Create rule' }).click()
    await editor.getByRole('alert').getByText('Field `answer.tool_calls[1].arguments` must be an object or its JSON text').waitFor()
    await editor.getByRole('button', { name: 'Remove tool call 2' }).click()
    await editor.getByRole('button', { name: 'Create rule' }).click()
    const rules = page.getByRole('list', { name: 'Chat fixtures' })
    await rules.getByText('Calls get_weather when the X-Emulator-Fixture header is "weather-path".').waitFor()

    const chat = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-fixture': 'weather-path' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Weather?' }] }),
    })
    const call = ((await chat.json()) as { choices: Array<{ message: { tool_calls: Array<{ function: { name: string; arguments: string } }> } }> }).choices[0]!
      .message.tool_calls[0]!
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' })

    // A script adds a 429 rule through the admin API: the open view shows it without a reload.
    const added = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'anthropic down', match: { model: 'anthropic/*' }, answer: { error: { status: 429 } } }),
    })
    expect(added.status).toBe(201)
    const items = rules.getByRole('listitem')
    await items.nth(1).getByText('anthropic down', { exact: true }).waitFor()
    const order = async () => (await items.locator('.rule-name').allTextContents()).join(', ')
    expect(await order()).toBe('weather, anthropic down')

    // Move the script's rule up, then down again.
    await rules.getByRole('button', { name: 'Move up: anthropic down' }).click()
    await rules.getByRole('listitem').first().getByText('anthropic down', { exact: true }).waitFor()
    expect(await rules.getByRole('button', { name: 'Move up: anthropic down' }).isDisabled()).toBe(true)
    await rules.getByRole('button', { name: 'Move down: anthropic down' }).click()
    await rules.getByRole('listitem').first().getByText('weather', { exact: true }).waitFor()
    const positions = ((await (await fetch(api)).json()) as { data: Rule[] }).data.map((r) => [r.name, r.position])
    expect(positions).toEqual([
      ['weather', 0],
      ['anthropic down', 1],
    ])

    // Edit the 429 rule: the form is filled from it, and the change is PATCHed in place.
    await rules.getByRole('button', { name: 'Edit rule: anthropic down' }).click()
    const edit = page.getByRole('region', { name: 'Edit rule' })
    expect(await edit.getByLabel('Model (* = anything)').inputValue()).toBe('anthropic/*')
    expect(await edit.getByLabel('An error').isChecked()).toBe(true)
    await edit.getByLabel('Status').selectOption('503')
    await edit.getByLabel('Message (optional)').fill('Down for maintenance')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    const edited = 'Answers 503 ("Down for maintenance") when the model is anthropic/*.'
    await rules.getByText(edited).waitFor()
    await page.getByRole('region', { name: 'Write a rule' }).getByRole('status').getByText(`Saved: ${edited}`).waitFor()
    expect(((await (await fetch(api)).json()) as { data: Rule[] }).data.map((r) => r.name)).toEqual(['weather', 'anthropic down'])

    // Disable it with its switch.
    const limited = rules.getByRole('listitem').filter({ hasText: 'anthropic down' })
    await limited.getByRole('switch', { name: 'Enabled' }).uncheck()
    await rules.getByText(edited.replace(/\.$/, ' (disabled).')).waitFor()
    await screenshot('fixtures-edited')

    // Delete one, then clear the rest (after confirming).
    await rules.getByRole('button', { name: 'Delete rule: weather' }).click()
    await rules.getByText('Calls get_weather', { exact: false }).waitFor({ state: 'detached' })
    expect(await rules.getByRole('listitem').count()).toBe(1)
    // Confirmed in the page, not through a native dialog.
    page.once('dialog', (dialog) => {
      throw new Error(`a native ${dialog.type()} dialog opened: ${dialog.message()}`)
    })
    await page.getByRole('button', { name: 'Clear all' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete all chat fixtures?' })
    await confirm.getByRole('button', { name: 'Delete all' }).click()
    await page.getByText('No chat fixtures').waitFor()
    expect(((await (await fetch(api)).json()) as { data: Rule[] }).data).toEqual([])
  })
})
