// The Faults, Requests and Connect views in a real browser: a 429 preset limited to the next two
// embeddings calls, the `openai` client meeting it, the requests arriving live in the journal with the
// fault marked, one request's detail (the rule's explanation, the request as curl), and the keys.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import OpenAI from 'openai'
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

describe.skipIf(!hasChromium)('faults and requests in the inspector', () => {
  afterAll(closeBrowser)

  it('adds a 429 preset, sees the faulted requests live with their detail, and shows the keys', async () => {
    const { emu, page, screenshot } = await openUi('faults')
    page.setDefaultTimeout(10_000)

    // Faults: nothing yet, then the 429 preset on the next two embeddings calls.
    await page.getByText('No fault rules').waitFor()
    const presets = page.getByRole('region', { name: 'Add a fault in one click' })
    await presets.getByLabel('Apply to operation').fill('embeddings.create')
    await presets.getByLabel('Next N requests').fill('2')
    await presets.getByRole('button', { name: '429 Rate limited' }).click()
    const explanation = 'Answers 429 (rate limit exceeded) to embeddings.create, the next 2 times.'
    const rules = page.getByRole('list', { name: 'Fault rules' })
    await rules.getByText(explanation, { exact: true }).waitFor()
    expect(await rules.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true)
    await screenshot('faults-view')

    const [rule] = ((await (await fetch(`${emu.url}/_emulator/api/faults`)).json()) as { data: Array<{ id: string }> }).data
    expect(rule).toMatchObject({ match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 2 })

    // Three embeddings calls: the rule answers the first two.
    const openai = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const embed = () => openai.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'hello' })
    await expect(embed()).rejects.toMatchObject({ status: 429 })
    await expect(embed()).rejects.toMatchObject({ status: 429 })
    expect((await embed()).data[0]!.embedding.length).toBeGreaterThan(0)
    // The rule's counts follow the requests without a reload.
    await rules.getByText('2 hits').waitFor()
    await rules.getByText('used up', { exact: true }).waitFor()

    // Requests: the three calls, the two 429s marked with the fault.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Requests' }).click()
    const table = page.getByRole('table', { name: 'Requests, newest first' })
    const embeddings = table.getByRole('row').filter({ hasText: 'embeddings.create' })
    await embeddings.nth(2).waitFor()
    expect(await embeddings.count()).toBe(3)
    const faulted = embeddings.filter({ has: page.getByText('fault', { exact: true }) })
    expect(await faulted.count()).toBe(2)
    expect(await faulted.first().getByText('429', { exact: true }).count()).toBe(1)
    expect(await faulted.first().getByText('fault', { exact: true }).getAttribute('title')).toContain(rule!.id)
    expect(await embeddings.first().getByText('200', { exact: true }).count()).toBe(1)

    // A request made while the view is open arrives live.
    await openai.models.list()
    await table.getByRole('row').filter({ hasText: 'models.list' }).waitFor()
    await screenshot('requests-live')

    // Filters: faulted only.
    await page.getByLabel('Faulted only').check()
    await page.getByText('2 of 4 requests').waitFor()
    expect(await table.getByRole('row').filter({ hasText: 'embeddings.create' }).count()).toBe(2)
    await page.getByLabel('Faulted only').uncheck()

    // One faulted request, chosen by keyboard: its detail, the rule's explanation, the curl command.
    await faulted.first().focus()
    await page.keyboard.press('Enter')
    expect(await faulted.first().getAttribute('aria-selected')).toBe('true')
    const detail = page.getByRole('region', { name: 'Request detail' })
    await detail.getByText('Answered by a fault').waitFor()
    await detail.getByText('Answers 429 (rate limit exceeded) to embeddings.create, and is used up.').waitFor()
    await detail.getByRole('table', { name: 'Response headers' }).getByText('retry-after').waitFor()
    // The emulator's own explanation, which the body leaves to the API's words, is shown on its own line.
    expect(await detail.getByLabel('Emulator detail').textContent()).toContain(`answered by fault rule ${rule!.id}`)
    await detail.getByRole('button', { name: /^Copy as curl/ }).waitFor()
    const curl = (await detail.getByLabel('The request as a curl command').textContent()) ?? ''
    expect(curl).toContain(`curl -X POST '${emu.url}/api/v1/embeddings'`)
    expect(curl).toContain('-H "Authorization: Bearer $KEY"')
    expect(curl).toContain(`--data '{"model":"openai/text-embedding-3-small","input":"hello"`)
    expect(curl).not.toContain('[redacted]')
    expect(curl).not.toContain('content-length')
    await screenshot('request-detail')

    // The command runs as it is (the rule is used up now, so it answers 200). Asynchronously: the
    // emulator answering it lives in this process.
    if (existsSync('/usr/bin/curl')) {
      const { stdout } = await promisify(execFile)('bash', ['-c', `${curl} --silent --show-error --max-time 10`], {
        env: { ...process.env, KEY: emu.keys.standard },
        timeout: 15_000,
      })
      expect((JSON.parse(stdout) as { object: string }).object).toBe('list')
    }

    // Connect: the default account's keys, in full, and the snippets.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Connect' }).click()
    const keys = page.getByRole('table', { name: /^Keys of / }).first()
    await keys.getByText(emu.keys.standard, { exact: true }).waitFor()
    await keys.getByText(emu.keys.management, { exact: true }).waitFor()
    await page.getByText(`baseURL: '${emu.url}/api/v1'`).waitFor()
    await page.getByText(`serverURL: '${emu.url}/api/v1'`).waitFor()
    await screenshot('connect-view')
    // The snippets start with a chat, and the curl one runs as it is pasted.
    const snippet = (title: string) =>
      page
        .locator('.snippet')
        .filter({ has: page.getByRole('heading', { name: title, exact: true }) })
        .locator('pre')
    expect(await snippet('openai (Node)').textContent()).toContain('client.chat.completions.create(')
    const pasted = (await snippet('curl').textContent()) ?? ''
    expect(pasted).toContain(`curl ${emu.url}/api/v1/chat/completions`)
    if (existsSync('/usr/bin/curl')) {
      const { stdout } = await promisify(execFile)('bash', ['-c', pasted.split('\n\n')[0]!], { timeout: 15_000 })
      expect((JSON.parse(stdout) as { object: string }).object).toBe('chat.completion')
    }
  })
})
