// Analytics through @openrouter/sdk over real HTTP: the meta, a query (its rows agree with activity
// read through the same client), and the typed errors. The SDK's row schema is an empty object, so it
// hands the rows back without their fields: the row count and metadata are what it keeps.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

describe('@openrouter/sdk analytics', () => {
  it('reads the meta and runs a query whose totals agree with getUserActivity', async () => {
    const emu = await listeningEmulator({ demo: true })
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const meta = await client.analytics.getAnalyticsMeta()
    expect(meta.data.metrics.find((m) => m.name === 'total_usage')).toEqual({
      name: 'total_usage',
      displayLabel: 'Spend',
      isRate: false,
      displayFormat: 'currency',
    })
    expect(meta.data.granularities.map((g) => g.name)).toContain('day')

    const timeRange = { start: new Date('2026-02-02T00:00:00Z'), end: new Date('2026-03-04T00:00:00Z') }
    const byDay = await client.analytics.queryAnalytics({ requestBody: { metrics: ['request_count'], granularity: 'day', timeRange, limit: 100 } })
    const activity = await client.analytics.getUserActivity()
    const days = new Set(activity.data.map((row) => row.date))
    expect(byDay.data.metadata).toMatchObject({ rowCount: days.size, truncated: false })
    expect(byDay.data.data).toHaveLength(days.size)

    // The same query over plain HTTP keeps the fields the SDK drops: the requests agree with activity.
    const raw = await fetch(`${emu.url}/api/v1/analytics/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metrics: ['request_count'], time_range: { start: timeRange.start.toISOString(), end: timeRange.end.toISOString() } }),
    })
    const total = ((await raw.json()) as { data: { data: Array<{ request_count: number }> } }).data.data[0]!.request_count
    expect(total).toBe(activity.data.reduce((n, row) => n + row.requests, 0))
  })

  it('surfaces a standard key as ForbiddenResponseError and a bad metric as BadRequestResponseError', async () => {
    const emu = await listeningEmulator()
    const standard = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const forbidden = await standard.analytics.getAnalyticsMeta().catch((e: unknown) => e)
    expect(forbidden).toBeInstanceOf(errors.ForbiddenResponseError)
    expect((forbidden as errors.ForbiddenResponseError).statusCode).toBe(403)
    const management = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const bad = await management.analytics.queryAnalytics({ requestBody: { metrics: ['spend'] } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error.message).toMatch(/^Field `metrics\[0\]` is not a metric/)
  })
})
