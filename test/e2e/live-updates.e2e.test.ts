// The inspector follows changes made by others without polling: a client renames a key and creates a
// guardrail through the gateway, a script adds a fault and moves the clock through the admin API, and
// the open views show them from the event stream alone. The page's timers are recorded to prove no
// query polls (a refetch interval is a setInterval), and its requests to prove it reads only the
// admin API, never the gateway.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

describe.skipIf(!hasChromium)('live updates in the inspector', () => {
  afterAll(closeBrowser)

  it('shows changes made through the gateway and the admin API as they happen, with no polling', async () => {
    const { emu, page, screenshot } = await openUi('data')
    page.setDefaultTimeout(10_000)
    // Every interval timer the page starts, by its period (the page is loaded again to record from the start).
    await page.addInitScript(() => {
      // The page's global object (this file is type-checked without the DOM's types).
      const scope = globalThis as unknown as { setInterval: (handler: unknown, ms?: number, ...args: unknown[]) => unknown; recordedIntervals: number[] }
      const original = scope.setInterval.bind(scope)
      scope.recordedIntervals = []
      scope.setInterval = (handler, ms, ...args) => {
        scope.recordedIntervals.push(ms ?? 0)
        return original(handler, ms, ...args)
      }
    })
    await page.reload()
    const reads: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname !== '/_emulator/api/events') reads.push(`${request.method()} ${url.pathname}`)
    })

    const keys = page.getByRole('region', { name: /^Keys of / })
    await keys.getByRole('table').waitFor()
    await page.getByText('live', { exact: true }).waitFor()
    const guardrails = page.getByRole('region', { name: /^Guardrails of / })
    await guardrails.getByText('No guardrails').waitFor()

    // A client renames a key through the gateway with its own management key.
    const auth = { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' }
    const listed = (await (await fetch(`${emu.url}/api/v1/keys`, { headers: auth })).json()) as { data: Array<{ hash: string; name: string }> }
    const key = listed.data[0]!
    const renamed = await fetch(`${emu.url}/api/v1/keys/${key.hash}`, { method: 'PATCH', headers: auth, body: JSON.stringify({ name: 'Renamed by a client' }) })
    expect(renamed.status).toBe(200)
    await keys.getByText('Renamed by a client').waitFor()

    // The same client creates a guardrail and assigns the key to it.
    const created = await fetch(`${emu.url}/api/v1/guardrails`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Made by a client', limit_usd: 5 }),
    })
    expect(created.status).toBe(201)
    const guardrail = ((await created.json()) as { data: { id: string } }).data
    await fetch(`${emu.url}/api/v1/guardrails/${guardrail.id}/assignments/keys`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ key_hashes: [key.hash] }),
    })
    const row = guardrails.getByRole('row').filter({ hasText: 'Made by a client' })
    await row.getByText('Renamed by a client').waitFor()
    await screenshot('data-live-from-gateway')

    // A script adds a fault through the admin API while the Faults view is open.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Faults' }).click()
    await page.getByText('No fault rules').waitFor()
    // The presets come from the emulator.
    await page.getByRole('button', { name: '503 Provider unavailable' }).waitFor()
    await page.getByRole('button', { name: 'Drop the connection' }).waitFor()
    await fetch(`${emu.url}/_emulator/api/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { operation: 'models.count' }, action: { status: 503 }, remaining: 1 }),
    })
    const rules = page.getByRole('list', { name: 'Fault rules' })
    await rules.getByText(/^Answers 503 .*models\.count/).waitFor()
    // Its hit count follows the request it answers.
    expect((await fetch(`${emu.url}/api/v1/models/count`)).status).toBe(503)
    await rules.getByText('1 hit').waitFor()

    // The clock moved by a script shows on the Clock view.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Clock' }).click()
    await page.getByRole('status', { name: 'Virtual time' }).getByText('10:00:00').waitFor()
    await fetch(`${emu.url}/_emulator/api/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"by":"2h"}' })
    await page.getByRole('status', { name: 'Virtual time' }).getByText('12:00:00').waitFor()

    // Every read of the page went to the admin API; none through the gateway.
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.filter((r) => !r.includes(' /_emulator/'))).toEqual([])
    // No query polled: the only interval is the Clock view's once-a-second redraw of the time.
    const intervals = await page.evaluate(() => (globalThis as unknown as { recordedIntervals: number[] }).recordedIntervals)
    expect(intervals.filter((ms) => ms !== 1000)).toEqual([])
  })
})
