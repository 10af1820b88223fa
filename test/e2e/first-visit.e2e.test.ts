// What a new user meets first, in a real browser: the page an emulator that wants its admin token
// answers (and the link that opens it), the tab's icon with nothing failing in the console, the video
// tasks' prompts and real durations, and the Requests view's dates in the browser's time zone.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, launch, openUi } from './harness.ts'
import { startEmulator } from '../../src/emulator/index.ts'

/** Failed loads and policy violations a page reports: a new user sees them in the console. */
function watchProblems(page: import('playwright-core').Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`))
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
  })
  return problems
}

describe.skipIf(!hasChromium)('a first visit to the inspector', () => {
  afterAll(closeBrowser)

  it('without the admin token shows a page saying how to get in; the printed link opens the inspector', async () => {
    const emu = await startEmulator({ port: 0, euPort: -1, db: ':memory:', clock: 'manual', logLevel: 'silent', adminToken: 'let-me-in' })
    const context = await (await launch()).newContext()
    try {
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      const violations: string[] = []
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) violations.push(message.text())
      })

      const refused = await page.goto(emu.uiUrl)
      expect(refused?.status()).toBe(401)
      expect(refused?.headers()['content-type']).toBe('text/html; charset=utf-8')
      await page.getByRole('heading', { name: 'The inspector needs the admin token' }).waitFor()
      await page.getByText('/_emulator/?token=<token>').waitFor()
      expect(await page.content()).not.toContain('let-me-in')

      // A stale token (an emulator restarted with a new random one) is named as such.
      await page.goto(`${emu.uiUrl}?token=yesterdays`)
      await page.getByText('The token this browser sent is not the right one').waitFor()

      // The link with the token opens the inspector; the cookie keeps it for the next loads.
      const opened = await page.goto(`${emu.uiUrl}?token=let-me-in#/requests`)
      expect(opened?.status()).toBe(200)
      await page.getByRole('navigation', { name: 'Views' }).waitFor()
      await page.getByRole('table', { name: 'Requests, newest first' }).or(page.getByText('No requests yet')).first().waitFor()
      await page.goto(`${emu.uiUrl}#/clock`)
      await page.getByRole('status', { name: 'Virtual time' }).waitFor()
      expect(violations).toEqual([])
    } finally {
      await context.close()
      await emu.close()
    }
  })

  it('has a tab icon and nothing failing in the console', async () => {
    const { emu, page } = await openUi('clock')
    page.setDefaultTimeout(10_000)
    const problems = watchProblems(page)
    await page.reload()
    await page.getByRole('status', { name: 'Virtual time' }).waitFor()
    const href = await page.locator('link[rel="icon"]').getAttribute('href')
    expect(href).toBe('./favicon.svg')
    const icon = await page.request.get(new URL(href!, page.url()).href)
    expect([icon.status(), icon.headers()['content-type']]).toEqual([200, 'image/svg+xml'])
    // The default icon browsers ask for on every page of the origin (the admin API's JSON, the docs).
    expect((await page.request.get(`${emu.url}/favicon.ico`)).status()).toBe(200)
    await page.goto(`${emu.url}/_emulator/api/health`)
    await page.getByText('"status":"ok"').waitFor()
    expect(problems).toEqual([])
  })

  it('lists video tasks with their prompt, and a task shows the duration it asked for', { timeout: 60_000 }, async () => {
    const { emu, page, screenshot } = await openUi('video')
    page.setDefaultTimeout(10_000)
    const create = async (body: object) => {
      const res = await fetch(`${emu.url}/router/v1/video/ent/v2/text2video`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { task_id: string }).task_id
    }
    const long = 'A lighthouse at dusk, waves breaking on the rocks below while gulls circle the lamp as it turns'
    const three = await create({ model: 'videoq2', prompt: long, duration: 3 })
    const short = await create({ model: 'videoq2', prompt: 'a fox in snow' })

    await page.reload()
    const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Prompt' }) })
    const row = table.getByRole('row').filter({ hasText: three })
    const cell = row.getByRole('cell').filter({ hasText: 'A lighthouse at dusk' })
    await cell.waitFor()
    const shown = (await cell.innerText()).trim()
    expect(shown.endsWith('…')).toBe(true)
    expect(shown.length).toBeLessThan(long.length)
    expect(long.startsWith(shown.slice(0, -1))).toBe(true)
    expect(await cell.getAttribute('title')).toBe(long)
    await table.getByRole('row').filter({ hasText: short }).getByRole('cell', { name: 'a fox in snow', exact: true }).waitFor()

    // The detail: the whole prompt and the seconds asked for, before and after it succeeds.
    await row.click()
    const detail = page.getByRole('region', { name: new RegExp(`^Task ${three}`) })
    await detail.getByText('3 s requested', { exact: true }).waitFor()
    await detail.getByText(long, { exact: true }).waitFor()
    await detail.getByRole('button', { name: 'Succeed' }).click()
    await detail.getByText(/, 3 s at 24 fps/).waitFor()
    expect(await detail.getByText(/ 5 s /).count()).toBe(0)
    await screenshot('video-prompt-duration')

    await table.getByRole('row').filter({ hasText: short }).click()
    await page
      .getByRole('region', { name: new RegExp(`^Task ${short}`) })
      .getByText('5 s requested', { exact: true })
      .waitFor()
  })

  it("shows each request's date and time on the virtual clock, in the browser's time zone", async () => {
    // 10:00 UTC on the manual clock is 19:00 in Tokyo (no daylight saving time there).
    const { emu, page, screenshot } = await openUi('requests', { clockStart: '2026-03-04T10:00:00.000Z' }, { timezoneId: 'Asia/Tokyo' })
    page.setDefaultTimeout(10_000)
    // Once the view is listening, the request arrives live.
    await page.getByText('No requests yet').waitFor()
    await page.getByText('live', { exact: true }).waitFor()
    expect((await fetch(`${emu.url}/api/v1/models/count`)).status).toBe(200)
    const table = page.getByRole('table', { name: 'Requests, newest first' })
    const row = table.getByRole('row').filter({ hasText: 'models.count' })
    const time = row.getByRole('cell').first()
    await time.waitFor()
    expect(await time.innerText()).toBe('Mar 4 19:00:00.000')
    const title = (await time.getAttribute('title')) ?? ''
    expect(title).toContain('Virtual: 2026-03-04 19:00:00.000 (2026-03-04 10:00:00Z UTC)')
    expect(title).toMatch(/\nReal: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \(/)
    expect(await table.getByRole('columnheader').first().getAttribute('title')).toContain('Asia/Tokyo')

    await row.click()
    await page.getByRole('region', { name: 'Request detail' }).getByText('2026-03-04 19:00:00.000 (virtual)').waitFor()
    await screenshot('requests-dates')
  })
})
