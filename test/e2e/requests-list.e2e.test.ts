// The Requests view's list in a real browser, as a user with many chats reads it: each completion's
// row names its model and the start of its last user message (chat, Responses, Messages; nothing for
// a body the journal cut or that is not JSON), for requests listed when the view opened and for those
// that arrive live; and with a request's detail open beside a narrow list, a path breaks only after a
// `/`, never inside a word.
import type { Locator } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

const LONG_QUESTION =
  'Could you explain, in plain words and with an example or two, why sea otters wrap themselves in kelp before they fall asleep on the water at night?'

/** The characters after which the text of `cell` goes on to a new line, as Chromium laid it out. */
function lineBreaksIn(cell: Locator): Promise<string[]> {
  return cell.evaluate((element) => {
    const breaks: string[] = []
    const doc = element.ownerDocument
    const SHOW_TEXT = 4 // NodeFilter.SHOW_TEXT
    const walker = doc.createTreeWalker(element, SHOW_TEXT)
    let lastTop: number | null = null
    let lastChar = ''
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let i = 0; i < text.length; i++) {
        const range = doc.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const box = range.getClientRects()[0]
        if (!box) continue
        // A space where a line ends takes no room: the line still broke after it.
        if (box.width === 0) {
          if (/\s/.test(text[i]!)) lastChar = ' '
          continue
        }
        if (lastTop !== null && box.top > lastTop + 2) breaks.push(lastChar)
        lastTop = box.top
        lastChar = text[i]!
      }
    }
    return breaks
  })
}

describe.skipIf(!hasChromium)('the request list', () => {
  afterAll(closeBrowser)

  it("shows each completion's model and last user message, from the first page and live; nothing for a cut or non-JSON body", async () => {
    // A small body limit: the journal cuts the one long request below, and keeps the others whole.
    const { emu, page, screenshot } = await openUi('requests', { journalBodyLimit: 700 })
    page.setDefaultTimeout(10_000)
    const send = async (path: string, body: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${emu.url}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', ...headers },
        body,
      })
      return res.status
    }

    // Sent before the page reloads: listed from the admin API's first page.
    expect(
      await send(
        '/chat/completions',
        JSON.stringify({
          model: 'openai/gpt-4o-mini',
          messages: [
            { role: 'system', content: 'Answer briefly.' },
            { role: 'user', content: 'Hello there' },
            { role: 'assistant', content: 'Hi! How can I help?' },
            { role: 'user', content: [{ type: 'text', text: 'Where do sea otters sleep?' }] },
          ],
        }),
      ),
    ).toBe(200)
    expect(await send('/responses', JSON.stringify({ model: 'openai/gpt-4o-mini', input: 'Name three kelp species' }))).toBe(200)
    await page.reload()
    const table = page.getByRole('table', { name: 'Requests, newest first' })
    await table.getByRole('row').filter({ hasText: 'responses.create' }).waitFor()
    const headers = await table.getByRole('columnheader').allInnerTexts()
    const column = headers.findIndex((text) => text.trim() === 'Model and message')
    expect(column, `columns: ${headers.join(' | ')}`).toBeGreaterThan(-1)
    const gistOf = (operation: string, nth = 0) => table.getByRole('row').filter({ hasText: operation }).nth(nth).getByRole('cell').nth(column)

    await expect.poll(() => gistOf('chat.create').innerText()).toMatch(/openai\/gpt-4o-mini\s+Where do sea otters sleep\?/)
    await expect.poll(() => gistOf('responses.create').innerText()).toMatch(/openai\/gpt-4o-mini\s+Name three kelp species/)

    // Sent while the view is open: they arrive live, as summaries, and their rows fill in.
    await page.getByText('live', { exact: true }).waitFor()
    expect(
      await send(
        '/messages',
        JSON.stringify({
          model: 'anthropic/claude-3.5-haiku',
          max_tokens: 64,
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello.' },
            { role: 'user', content: [{ type: 'text', text: 'Do otters use tools?' }] },
          ],
        }),
        { 'anthropic-version': '2023-06-01' },
      ),
    ).toBe(200)
    await expect.poll(() => gistOf('messages.create').innerText()).toMatch(/anthropic\/claude-3\.5-haiku\s+Do otters use tools\?/)

    expect(
      await send(
        '/responses',
        JSON.stringify({
          model: 'openai/gpt-4o-mini',
          input: [
            { role: 'developer', content: 'Be kind.' },
            { role: 'user', content: [{ type: 'input_text', text: LONG_QUESTION }] },
          ],
        }),
      ),
    ).toBe(200)
    // A long message is cut short in the cell; the whole of it is in the cell's title.
    const long = gistOf('responses.create')
    await expect.poll(() => long.innerText()).toContain('Could you explain')
    const shown = (await long.innerText()).trim()
    expect(shown).not.toContain('fall asleep on the water at night?')
    expect(shown).toMatch(/…$/)
    expect(await long.locator('[title]').last().getAttribute('title')).toBe(LONG_QUESTION)

    // A body that is not JSON (the gateway answers 400) and one the journal cut: the cell stays empty.
    expect(await send('/chat/completions', '{"model": "openai/gpt-4o-mini", "messages": [')).toBe(400)
    const padding = 'kelp '.repeat(200)
    expect(
      await send(
        '/chat/completions',
        JSON.stringify({
          model: 'openai/gpt-4o-mini',
          messages: [
            { role: 'system', content: padding },
            { role: 'user', content: 'A question after a long system prompt' },
          ],
        }),
      ),
    ).toBe(200)
    const chats = table.getByRole('row').filter({ hasText: 'chat.create' })
    await expect.poll(() => chats.count()).toBe(3)
    // Newest first: the cut one, then the one that is not JSON; both empty once their entries were read.
    for (const nth of [0, 1]) {
      const cell = gistOf('chat.create', nth)
      await expect.poll(() => cell.getAttribute('aria-busy')).not.toBe('true')
      expect((await cell.innerText()).trim()).toBe('')
    }
    await screenshot('requests-model-message')
  })

  it('keeps each path whole with the detail open: a line breaks only after a slash', async () => {
    const { emu, page, screenshot } = await openUi('requests', {}, { viewport: { width: 1100, height: 800 } })
    page.setDefaultTimeout(10_000)
    await page.getByText('live', { exact: true }).waitFor()
    const call = (path: string, body: object) =>
      fetch(`${emu.url}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await call('/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there, who are you?' }] })).status).toBe(
      200,
    )
    expect((await call('/embeddings', { model: 'openai/text-embedding-3-small', input: 'hello' })).status).toBe(200)
    expect((await fetch(`${emu.url}/api/v1/models/openai/gpt-4o-mini/endpoints`)).status).toBe(200)

    const table = page.getByRole('table', { name: 'Requests, newest first' })
    await table.getByRole('row').filter({ hasText: '/endpoints' }).waitFor()
    await table.getByRole('row').filter({ hasText: 'chat.create' }).click()
    const detail = page.getByRole('region', { name: 'Request detail' })
    await detail.getByText('Request body').waitFor()

    const headers = await table.getByRole('columnheader').allInnerTexts()
    const pathColumn = headers.findIndex((text) => text.trim() === 'Path')
    for (const path of ['/api/v1/chat/completions', '/api/v1/embeddings', '/api/v1/models/openai/gpt-4o-mini/endpoints']) {
      const cell = table.getByRole('row').filter({ hasText: path }).first().getByRole('cell').nth(pathColumn)
      // The whole path is there to read, after its method (in the cell, or its title where the cell shortens it)...
      const text = (await cell.innerText()).replace(/\s/g, '')
      expect(/^(GET|POST)/.test(text) && (text.endsWith(path) || (await cell.getAttribute('title'))?.endsWith(path)), `${path} shown as ${text}`).toBe(true)
      // ...and where it takes more than one line, each line ends at a slash (or the space after the method).
      const breaks = await lineBreaksIn(cell)
      expect(
        breaks.filter((char) => char !== '/' && char !== ' '),
        `${path} breaks after ${JSON.stringify(breaks)}`,
      ).toEqual([])
    }
    // The detail's own title, the method and path, breaks the same way.
    const title = detail.getByRole('heading', { level: 3 }).first()
    expect((await title.innerText()).replace(/\s/g, '')).toBe('POST/api/v1/chat/completions')
    const titleBreaks = await lineBreaksIn(title)
    expect(
      titleBreaks.filter((char) => char !== '/' && char !== ' '),
      `the title breaks after ${JSON.stringify(titleBreaks)}`,
    ).toEqual([])
    await screenshot('requests-paths-detail-open')
  })
})
