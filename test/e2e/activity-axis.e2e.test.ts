// The Activity view's spend chart in a real browser, for an account that spent cents: the y-axis
// labels are distinct, read as dollars, and each is the value at its tick (evenly spaced, from $0 up
// past the biggest day), not the same rounded figure repeated.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

const money = (label: string): number => Number(label.replace(/^\$/, '').replaceAll(',', ''))

describe.skipIf(!hasChromium)('the Activity chart', () => {
  afterAll(closeBrowser)

  it('labels a small spend with distinct ticks true to the scale', async () => {
    const { emu, page, screenshot } = await openUi('activity')
    page.setDefaultTimeout(10_000)
    const chat = async (model: string, content: string) => {
      const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content }], max_tokens: 120 }),
      })
      expect(res.status).toBe(200)
    }
    const advanceOneDay = async () => {
      const res = await fetch(`${emu.url}/_emulator/api/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ by: '1d' }),
      })
      expect(res.status).toBe(200)
    }
    // Two days of a few cents' worth of calls: cents to a tenth of a cent per day.
    await chat('anthropic/claude-opus-4.1', 'Tell me about sea otters and kelp forests, at some length')
    await chat('openai/gpt-4o-mini', 'And the kelp itself?')
    await advanceOneDay()
    await chat('anthropic/claude-opus-4.1', 'What do otters eat?')
    await advanceOneDay()

    const accounts = (await (await fetch(`${emu.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }
    const activity = await fetch(`${emu.url}/_emulator/api/accounts/${accounts.data[0]!.id}/activity`)
    const rows = ((await activity.json()) as { data: Array<{ date: string; usage: number }> }).data
    const perDay = new Map<string, number>()
    for (const row of rows) perDay.set(row.date, (perDay.get(row.date) ?? 0) + row.usage)
    const biggestDay = Math.max(...perDay.values())
    expect(biggestDay).toBeGreaterThan(0)
    expect(biggestDay).toBeLessThan(0.05)

    // Read afresh: the calls came before the page may have had its live connection (this test is about the axis).
    await page.reload()
    const spend = page.getByRole('figure', { name: /Spend per day/ })
    // A bar of the cheap model is less than a pixel high: attached, not visible.
    await spend.locator('svg .recharts-bar-rectangle path').first().waitFor({ state: 'attached' })
    const ticks = spend.locator('.recharts-yAxis-tick-labels text.recharts-cartesian-axis-tick-value')
    const read = await ticks.evaluateAll((elements) =>
      elements.map((text) => {
        const box = text.getBoundingClientRect()
        return { label: text.textContent ?? '', y: box.top + box.height / 2 }
      }),
    )
    const labels = read.map((t) => t.label)
    expect(labels.length, labels.join(', ')).toBeGreaterThanOrEqual(3)
    expect(new Set(labels).size, `repeated labels: ${labels.join(', ')}`).toBe(labels.length)
    for (const label of labels) expect(label).toMatch(/^\$\d[\d,]*(\.\d+)?$/)

    // Bottom to top: from $0, evenly spaced, the top one above the biggest day.
    const ordered = [...read].sort((a, b) => b.y - a.y)
    const values = ordered.map((t) => money(t.label))
    expect(values[0]).toBe(0)
    const step = values[1]! - values[0]!
    expect(step).toBeGreaterThan(0)
    values.forEach((value, i) => expect(value).toBeCloseTo(i * step, 10))
    expect(values.at(-1)!).toBeGreaterThanOrEqual(biggestDay)
    // Each label sits where its value is on the axis: the distance from $0 is proportional to the value.
    const pixelsPerDollar = (ordered[0]!.y - ordered.at(-1)!.y) / values.at(-1)!
    ordered.forEach((tick, i) => expect(Math.abs(ordered[0]!.y - tick.y - values[i]! * pixelsPerDollar)).toBeLessThan(1.5))
    await screenshot('activity-small-spend-axis')
  })
})
