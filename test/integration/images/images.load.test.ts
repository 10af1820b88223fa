// Images drawn and encoded in the media worker threads, over HTTP: the issue's attack (six 4096x4096
// JPEGs at once) beside another account's heartbeat, fairness between accounts, the bound on one
// account's queue (a 429 that bills nothing) and a worker killed part way (a 500 for that request
// alone; the next is drawn by a new thread).
import { describe, expect, it } from 'vitest'
import { mediaPool } from '../../../src/emulator/media/media-queue.ts'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'
import { anotherAccountKey, withHeartbeat } from '../../helpers/heartbeat.ts'

const SEEDREAM = 'bytedance-seed/seedream-4.5'

const create = (url: string, key: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-image-1', prompt: 'a lighthouse at dusk', ...body }),
  })

const credits = async (url: string, key: string): Promise<number> =>
  ((await (await fetch(`${url}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { total_usage: number } }).data.total_usage

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('images in the media workers', () => {
  it('six 4096x4096 JPEGs at once hold another account’s light requests for less than 500 ms', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const other = await anotherAccountKey(emu.url)
    const { result, heartbeat } = await withHeartbeat(
      emu.url,
      () =>
        Promise.all(
          Array.from({ length: 6 }, async (_, i) => {
            const res = await create(emu.url, emu.keys.standard, { model: SEEDREAM, prompt: `poster ${i}`, size: '4096x4096', output_format: 'jpeg' })
            const body = (await res.json()) as { data: Array<{ b64_json: string }> }
            return { status: res.status, head: Buffer.from(body.data[0]!.b64_json.slice(0, 8), 'base64') }
          }),
        ),
      {},
      { key: other },
    )
    for (const image of result) {
      expect(image.status).toBe(200)
      expect([...image.head.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    }
    expect(heartbeat.failures).toEqual([])
    expect(heartbeat.beats).toBeGreaterThan(10)
    expect(heartbeat.slowestMs).toBeLessThan(500)
  })

  it('one account’s queue of large images delays another account’s single image by one job at most', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator({ mediaThreads: 1 })
    const other = await anotherAccountKey(emu.url)
    const done: string[] = []
    const heavy = Array.from({ length: 4 }, (_, i) =>
      create(emu.url, emu.keys.standard, { model: SEEDREAM, prompt: `large ${i}`, size: '4096x4096', output_format: 'png' }).then((res) => {
        done.push(`large ${i}`)
        return res.status
      }),
    )
    // The first large image is being drawn (the only thread), the other three wait in the account's lane.
    await waitFor(() => mediaPool().busyWorkers().length === 1)
    const single = await create(emu.url, other, { prompt: 'a single small one' })
    done.push('other account')
    expect(single.status).toBe(200)
    expect(await Promise.all(heavy)).toEqual([200, 200, 200, 200])
    // With one thread: behind the large image being drawn, and before the rest of that account's queue.
    expect(done.indexOf('other account')).toBeLessThanOrEqual(1)
  })

  it('refuses a request past the account’s media queue with a 429 and Retry-After, before anything is billed', { timeout: 120_000 }, async () => {
    const emu = await testEmulator()
    const post = (url: string, body: Record<string, unknown>) =>
      emu.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' }, payload: body })
    // One large image being drawn holds the account's lane (one of its jobs runs at a time) ...
    const large = post('/api/v1/images', { model: SEEDREAM, prompt: 'a large one', size: '4096x4096', output_format: 'jpeg' })
    await waitFor(() => mediaPool().busyWorkers().length === 1)
    const usedBefore = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage
    // ... while twenty speeches arrive (a route that reads its small body at once): sixteen may wait, the rest are refused.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/api/v1/audio/speech', { model: 'openai/gpt-4o-mini-tts', input: `Queued speech number ${i}.`, response_format: 'wav' }),
      ),
    )
    expect((await large).statusCode).toBe(200)
    const refused = answers.filter((res) => res.statusCode === 429)
    const made = answers.filter((res) => res.statusCode === 200)
    expect(refused.length + made.length).toBe(20)
    expect(made.length).toBeGreaterThanOrEqual(16)
    expect(refused.length).toBeGreaterThanOrEqual(1)
    expect(refused[0]!.headers['retry-after']).toBe('1')
    expect(refused[0]!.json()).toEqual({
      error: {
        code: 429,
        message:
          'Rate limit exceeded: 16 images, speeches or transcriptions of this account are already waiting to be made, the most one account may queue; retry once some are done',
        metadata: { limit_source: 'media_queue_account', limit: 16 },
      },
    })
    // Only the speeches made were billed: the refused ones cost nothing, and made no generation.
    const activity = (await emu.get('/_emulator/api/journal?operation=audio.speech')).body.data as Array<{ status: number; effects: { usage: unknown[] } }>
    for (const entry of activity) expect(entry.effects.usage.length).toBe(entry.status === 200 ? 1 : 0)
    const used = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage
    expect(used).toBeGreaterThan(usedBefore)
  })

  it('answers a 500 saying so when the worker drawing a request is killed, and draws the next one with a new thread', { timeout: 60_000 }, async () => {
    const emu = await listeningEmulator()
    const before = await credits(emu.url, emu.keys.standard)
    const killed = create(emu.url, emu.keys.standard, { model: SEEDREAM, size: '4096x4096', output_format: 'jpeg' })
    await waitFor(() => mediaPool().busyWorkers().length === 1)
    await mediaPool().busyWorkers()[0]!.terminate()
    const res = await killed
    expect(res.status).toBe(500)
    const body = (await res.json()) as { error: { code: number; message: string; metadata: unknown } }
    expect(body.error.code).toBe(500)
    expect(body.error.message).toMatch(
      /^The emulator's media worker stopped while making this answer \(it was stopped, exit code \d+\), so none was made: retry the request$/,
    )
    expect(body.error.metadata).toEqual({ reason: 'media_worker_failed' })
    // It was billed when the worker died (the bill comes before the drawing, as a real provider's).
    expect(await credits(emu.url, emu.keys.standard)).toBeGreaterThan(before)
    const next = await create(emu.url, emu.keys.standard, {})
    expect(next.status).toBe(200)
  })

  it('closes without waiting on the media queue: the close takes its grace and no more', { timeout: 60_000 }, async () => {
    const emu = await listeningEmulator()
    const large = Array.from({ length: 3 }, (_, i) =>
      create(emu.url, emu.keys.standard, { model: SEEDREAM, prompt: `large ${i}`, size: '4096x4096', output_format: 'jpeg' }).then(
        (res) => res.status,
        () => 'connection closed',
      ),
    )
    await waitFor(() => mediaPool().busyWorkers().length === 1)
    const started = performance.now()
    await emu.close(200)
    expect(performance.now() - started).toBeLessThan(2_000)
    // Answers cut by the close, or refused as it closes; none hangs.
    for (const outcome of await Promise.all(large)) expect([200, 503, 'connection closed']).toContain(outcome)
  })
})
