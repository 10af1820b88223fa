// The public datasets through @openrouter/sdk over real HTTP: benchmarks, task classifications, app
// rankings and session costs paged by the SDK's own iterator, daily rankings, and the typed errors
// (a 400 for a date before the dataset, the 429 of the datasets' rate limit).
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const clientOf = (url: string, apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

describe('@openrouter/sdk datasets', () => {
  it('reads benchmarks, task classifications and daily rankings', async () => {
    const emu = await listeningEmulator()
    const client = clientOf(emu.url, emu.keys.standard)
    const aa = await client.benchmarks.getBenchmarks({ source: 'artificial-analysis', maxResults: 3 })
    expect(aa.data).toHaveLength(3)
    expect(aa.meta).toMatchObject({ source: 'artificial-analysis', version: 'v1', modelCount: 3 })
    const search = await client.benchmarks.getBenchmarks({ taskType: 'search', includeRunConfig: true, maxResults: 2 })
    expect(search.data.every((item) => 'primaryScore' in item && item.runConfig !== undefined)).toBe(true)

    const tasks = await client.classifications.getTaskClassifications({ window: '7d' })
    expect(tasks.data.windowDays).toBe(7)
    expect(tasks.data.classifications.reduce((n, c) => n + c.usageShare, 0)).toBeCloseTo(1, 9)

    const daily = await client.datasets.getRankingsDaily({ startDate: '2026-03-01', endDate: '2026-03-02', period: 'day' })
    expect(daily.meta).toMatchObject({ startDate: '2026-03-01', endDate: '2026-03-02' })
    expect(daily.data.filter((row) => row.modelPermaslug === 'other')).toHaveLength(2)
  })

  it('pages app rankings and session costs with the SDK iterator, ranks staying absolute', async () => {
    const emu = await listeningEmulator()
    const client = clientOf(emu.url, emu.keys.standard)
    const ranks: number[] = []
    for await (const page of await client.datasets.getAppRankings({ limit: 20 })) ranks.push(...page.result.data.map((app) => app.rank))
    // 70 apps: pages of 20, 20, 20 and 10.
    expect(ranks).toEqual(Array.from({ length: 70 }, (_, i) => i + 1))
    const cells: string[] = []
    for await (const page of await client.datasets.getSessionCost({ appSlug: 'hermes-agent', limit: 10 }))
      cells.push(...page.result.data.map((c) => `${c.modelPermaslug} ${c.turnRange}`))
    expect(cells).toHaveLength(24)
    expect(new Set(cells).size).toBe(24)
  })

  it('surfaces a date before the dataset as BadRequestResponseError and the 31st request of a minute as TooManyRequestsResponseError', async () => {
    const emu = await listeningEmulator()
    const client = clientOf(emu.url, emu.keys.standard)
    const early = await client.datasets.getRankingsDaily({ endDate: '2024-12-31' }).catch((e: unknown) => e)
    expect(early).toBeInstanceOf(errors.BadRequestResponseError)
    expect((early as errors.BadRequestResponseError).error.message).toBe(
      'Query parameter `end_date` must be on or after 2025-01-01, the first day of the dataset',
    )
    // A refused request still counts towards the minute (the limit is taken before the dates are read): 29 more make 30.
    for (let i = 0; i < 29; i++) await client.classifications.getTaskClassifications()
    const limited = await client.classifications.getTaskClassifications().catch((e: unknown) => e)
    expect(limited).toBeInstanceOf(errors.TooManyRequestsResponseError)
  })
})
