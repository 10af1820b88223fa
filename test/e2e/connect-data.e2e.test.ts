// The Connect page's words about keys and the Data view's presets, in a real browser: what the page
// says each kind of key calls agrees with what the emulator's routes require (read from its OpenAPI
// document); each preset button's accessible name is its visible text (the hint is its description);
// and loading the demo preset, from the Data view or the Activity view, is confirmed in the page (a
// dialog that Cancel and Escape close, changing nothing), never through a native browser dialog.
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

/** The word the Connect page uses for each area a standard key calls, by the path's start. */
const STANDARD_WORDS: Array<[prefix: string, word: string]> = [
  ['/api/v1/chat/completions', 'chat'],
  ['/api/v1/completions', 'completions'],
  ['/api/v1/responses', 'Responses'],
  ['/api/v1/messages', 'Messages'],
  ['/api/v1/embeddings', 'embeddings'],
  ['/api/v1/images', 'images'],
  ['/api/v1/audio/speech', 'speech'],
  ['/api/v1/audio/transcriptions', 'transcription'],
  ['/api/v1/rerank', 'rerank'],
  ['/api/v1/videos', 'video'],
  ['/router/v1/video', 'video'],
]
/** The same for management keys, by the first segment after /api/v1. */
const MANAGEMENT_WORDS: Record<string, string> = {
  keys: 'keys',
  workspaces: 'workspaces',
  guardrails: 'guardrails',
  organization: 'members',
  scim: 'SCIM',
  generation: 'feedback',
  presets: 'presets',
  byok: 'BYOK',
  observability: 'observability',
  auth: 'OAuth',
  analytics: 'analytics',
  activity: 'activity',
}

interface Operation {
  path: string
  security?: unknown
  description?: string
}

/** The gateway's and router's operations, with the key kind each needs: 'standard', 'management', 'any' or 'none'. */
async function keyKinds(url: string): Promise<Array<{ path: string; kind: string }>> {
  const document = (await (await fetch(`${url}/_emulator/api/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> }
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/v1/') || path.startsWith('/router/v1/'))
    .flatMap(([path, operations]) =>
      Object.values(operations).map((operation) => ({
        path,
        kind:
          operation.security === undefined
            ? 'none'
            : (operation.description ?? '').includes('(management or standard)')
              ? 'any'
              : (/Needs a (management|standard) API key/.exec(operation.description ?? '')?.[1] ?? '?'),
      })),
    )
}

/** Buttons as Chromium's accessibility tree computes them: accessible name and description. */
async function accessibleButtons(page: Page): Promise<Array<{ name: string; description: string }>> {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: Array<{ role?: { value?: string }; name?: { value?: string }; description?: { value?: string }; ignored?: boolean }>
  }
  await cdp.detach()
  return nodes
    .filter((node) => !node.ignored && node.role?.value === 'button')
    .map((node) => ({ name: node.name?.value ?? '', description: node.description?.value ?? '' }))
}

/** Native dialogs (alert, confirm) the page opens: none are expected. Each is dismissed. */
function watchNativeDialogs(page: Page): string[] {
  const seen: string[] = []
  page.on('dialog', (dialog) => {
    seen.push(dialog.message())
    void dialog.dismiss()
  })
  return seen
}

describe.skipIf(!hasChromium)('the Connect page and the Data presets', () => {
  afterAll(closeBrowser)

  it('says what each kind of key calls, as the routes require it', async () => {
    const { emu, page, screenshot } = await openUi('connect')
    page.setDefaultTimeout(10_000)
    const keys = page.getByRole('region', { name: 'API keys' })
    // The sentence (or list item) about each kind.
    const standard = keys
      .locator('p, li')
      .filter({ hasText: /^\s*Standard keys/ })
      .first()
    await standard.waitFor()
    const standardText = await standard.innerText()
    const managementText = await keys
      .locator('p, li')
      .filter({ hasText: /Management keys/i })
      .first()
      .innerText()

    const operations = await keyKinds(emu.url)
    expect(operations.filter((o) => o.kind === '?')).toEqual([])
    for (const { path } of operations.filter((o) => o.kind === 'standard')) {
      const word = STANDARD_WORDS.find(([prefix]) => path.startsWith(prefix))?.[1]
      expect(word, `${path} takes a standard key: name its area on the Connect page and in STANDARD_WORDS`).toBeDefined()
      expect(standardText.toLowerCase(), `the standard keys' sentence names ${word} (${path})`).toContain(word!.toLowerCase())
    }
    for (const { path } of operations.filter((o) => o.kind === 'management')) {
      const word = MANAGEMENT_WORDS[path.split('/')[3]!]
      expect(word, `${path} takes a management key: name it on the Connect page and in MANAGEMENT_WORDS`).toBeDefined()
      expect(managementText.toLowerCase(), `the management keys' sentence names ${word} (${path})`).toContain(word!.toLowerCase())
    }
    // The model list needs no key at all: not something a standard key is for.
    expect(operations.find((o) => o.path === '/api/v1/models')?.kind).toBe('none')
    expect(standardText).not.toMatch(/\bmodels\b/)
    await keys
      .locator('p, li')
      .filter({ hasText: /models.*needs? no key/ })
      .first()
      .waitFor()
    await screenshot('connect-key-kinds')
  })

  it('names each preset button by its visible text, and confirms the demo preset in the page', async () => {
    const { page, screenshot } = await openUi('data')
    page.setDefaultTimeout(10_000)
    const natives = watchNativeDialogs(page)
    const state = page.getByRole('region', { name: 'Emulator state' })
    const presets = state.getByRole('button').filter({ hasText: /^(Default|Empty|Demo)$/ })
    await presets.nth(2).waitFor()
    const visible = (await presets.allInnerTexts()).map((text) => text.trim())
    expect(visible).toEqual(['Default', 'Empty', 'Demo'])
    const computed = await accessibleButtons(page)
    for (const text of visible) {
      const button = computed.find((b) => b.name === text)
      expect(button, `a button named exactly "${text}" among ${JSON.stringify(computed.map((b) => b.name))}`).toBeDefined()
      // What the preset holds is still said: as the button's description.
      expect(button!.description).toMatch(/account|usage/)
    }

    const accounts = page.getByRole('region', { name: 'Accounts' })
    const spent = () => accounts.getByRole('row').filter({ hasText: 'Northwind Labs' }).getByRole('cell').nth(3).innerText()
    await expect.poll(spent).toBe('$0.00')
    const demo = state.getByRole('button', { name: 'Demo', exact: true })
    const dialog = page.getByRole('dialog', { name: 'Load the demo preset?' })

    // Cancel: the dialog goes, focus is back on the button, nothing changed.
    await demo.click()
    await dialog.waitFor()
    await dialog.getByText(/replaces the whole state/).waitFor()
    expect(await dialog.evaluate((element) => element.ownerDocument.activeElement?.textContent)).toBe('Cancel')
    await screenshot('data-demo-confirm')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    expect(await demo.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true)
    // Escape closes it the same way.
    await demo.click()
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect(await state.getByRole('status').count()).toBe(0)
    expect(await spent()).toBe('$0.00')

    // Confirmed: the demo preset is loaded.
    await demo.click()
    await dialog.getByRole('button', { name: 'Load demo preset' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await state.getByRole('status').filter({ hasText: 'Loaded the demo preset.' }).waitFor()
    await expect.poll(spent).not.toBe('$0.00')
    expect(natives).toEqual([])
  })

  it('confirms loading demo data from an empty Activity view in the page', async () => {
    const { page } = await openUi('activity')
    page.setDefaultTimeout(10_000)
    const natives = watchNativeDialogs(page)
    await page.getByText(/^No activity for /).waitFor()
    await page.getByRole('button', { name: 'Load demo data' }).click()
    const dialog = page.getByRole('dialog', { name: 'Load demo data?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Load demo data' }).click()
    await dialog.getByRole('button', { name: 'Load demo data' }).click()
    await page
      .getByRole('figure', { name: /Spend per day/ })
      .locator('svg .recharts-bar-rectangle path')
      .first()
      .waitFor()
    expect(natives).toEqual([])
  })
})
