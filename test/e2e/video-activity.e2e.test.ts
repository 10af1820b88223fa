// The Clock, Video, Data and Activity views in a real browser: a video task created through the router
// with a callback receiver, finished by moving the clock an hour, then inspected (timeline, deliveries,
// player); and the demo preset loaded from the Data view, drawn as charts in the Activity view.
import { afterAll, describe, expect, it } from 'vitest'
import { startSink } from '../helpers/sink.ts'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

describe.skipIf(!hasChromium)('video, clock, data and activity in the inspector', () => {
  afterAll(closeBrowser)

  it('finishes a video task with the clock and shows its timeline, callbacks and video', { timeout: 60_000 }, async () => {
    const receiver = await startSink()
    const { emu, page, screenshot } = await openUi('clock')
    page.setDefaultTimeout(10_000)
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message))

    const created = await fetch(`${emu.url}/router/v1/video/ent/v2/text2video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'videoq2', prompt: 'a lighthouse at dusk', callback_url: `${receiver.url}/hooks/video` }),
    })
    expect(created.status).toBe(200)
    const { task_id: taskId, state } = (await created.json()) as { task_id: string; state: string }
    expect(state).toBe('created')

    // Clock: 10:00 on the manual clock, then an hour later, with the task's work run on the way.
    await page.getByRole('status', { name: 'Virtual time' }).getByText('10:00:00').waitFor()
    await page.getByRole('button', { name: '+1 hour' }).click()
    await page.getByRole('status').filter({ hasText: 'Moved 1 hour forward, to 2026-03-04 11:00:00 UTC' }).waitFor()
    await page.getByRole('status', { name: 'Virtual time' }).getByText('11:00:00').waitFor()
    await screenshot('clock-view')

    // The receiver got the processing and the success callbacks.
    await receiver.until(2)
    expect(receiver.received.map((r) => [r.method, r.path, r.body.state, r.body.id])).toEqual([
      ['POST', '/hooks/video', 'processing', taskId],
      ['POST', '/hooks/video', 'success', taskId],
    ])

    // Video: select the task; it succeeded, with its whole timeline, both deliveries and the player.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Video' }).click()
    const row = page.getByRole('row').filter({ hasText: taskId })
    await row.getByText('success', { exact: true }).waitFor()
    await row.click()
    expect(await row.getAttribute('aria-selected')).toBe('true')

    const detail = page.getByRole('region', { name: new RegExp(`^Task ${taskId}`) })
    await detail.waitFor()
    const timeline = detail.getByRole('list', { name: 'State timeline' }).getByRole('listitem')
    await expect
      .poll(() => timeline.allInnerTexts())
      .toEqual([
        expect.stringContaining('created'),
        expect.stringContaining('queueing'),
        expect.stringContaining('processing'),
        expect.stringContaining('success'),
      ])

    const deliveries = detail.getByRole('list', { name: 'Callback deliveries' }).getByRole('listitem')
    await expect.poll(() => deliveries.count()).toBe(2)
    for (const [i, delivered] of ['processing', 'success'].entries()) {
      const item = deliveries.nth(i)
      await item.getByText(delivered, { exact: true }).waitFor()
      await item.getByText('delivered', { exact: true }).waitFor()
      await item.getByRole('cell', { name: '200', exact: true }).waitFor()
    }
    expect(await detail.getByRole('button', { name: 'Redeliver the success callback' }).isEnabled()).toBe(true)

    const player = detail.locator('video[controls]')
    await player.waitFor()
    expect(await player.getAttribute('src')).toBe(`${emu.url}/router/v1/video/media/${taskId}/video.mp4`)
    // The browser loads the sample (same origin, allowed by the CSP): its duration is known.
    await expect.poll(() => player.evaluate((video) => (video as unknown as { readyState: number }).readyState)).toBeGreaterThanOrEqual(1)
    await detail.getByRole('img', { name: `Cover of task ${taskId}` }).waitFor()
    await screenshot('video-task')
  })

  it('loads the demo preset from the Data view and charts it in the Activity view', { timeout: 60_000 }, async () => {
    const { page, screenshot } = await openUi('data')
    page.setDefaultTimeout(10_000)
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message))

    const accounts = page.getByRole('region', { name: 'Accounts' })
    await accounts.getByRole('row').filter({ hasText: 'Northwind Labs' }).getByText('$0.00', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Demo', exact: true }).click()
    await page.getByRole('dialog', { name: 'Load the demo preset?' }).getByRole('button', { name: 'Load demo preset' }).click()
    await page.getByRole('status').filter({ hasText: 'Loaded the demo preset.' }).waitFor()
    // Thirty days of usage: the account has spent something and the keys show it.
    await expect.poll(async () => accounts.getByRole('row').filter({ hasText: 'Northwind Labs' }).getByRole('cell').nth(3).innerText()).not.toBe('$0.00')
    const keys = page.getByRole('region', { name: 'Keys of Northwind Labs' })
    await keys.getByRole('meter', { name: /^Daily budget: daily usage/ }).waitFor()
    await screenshot('data-view')

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Activity' }).click()
    const spend = page.getByRole('figure', { name: /Spend per day/ })
    await spend.locator('svg .recharts-bar-rectangle path').first().waitFor()
    expect(await spend.locator('svg .recharts-bar-rectangle path').count()).toBeGreaterThan(30)
    const requests = page.getByRole('figure', { name: /Requests per day/ })
    await requests.locator('svg path.recharts-line-curve').waitFor()

    const byModel = page.getByRole('table', { name: 'By model' })
    const rows = byModel.locator('tbody').getByRole('row')
    await expect.poll(() => rows.count()).toBeGreaterThan(2)
    const total = await byModel.locator('tfoot').getByRole('row').innerText()
    expect(total).toMatch(/^Total\s+[\d,]+\s+\$\d+\.\d\d/)
    await screenshot('activity-chart')
  })
})
