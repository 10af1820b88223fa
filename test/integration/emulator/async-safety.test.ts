// Work that runs in the background, outside any request (video steps on the clock's own timer,
// callback deliveries, the journal noting a stream cut part way), must not end the process when it
// throws: an uncaught exception or an unhandled rejection ends Node. Each failure ends its one task or
// delivery with an error and a warning; the emulator keeps answering, and the other work goes on.
// The failures are real ones at the worst moment: the database refusing a write, or a read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { JournalSlots } from '../../../src/emulator/journal/journal-slots.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

/** What would have ended a plain Node process while the test ran. */
let fatal: unknown[] = []
const onFatal = (error: unknown): void => void fatal.push(error)

beforeEach(() => {
  fatal = []
  process.on('uncaughtException', onFatal)
  process.on('unhandledRejection', onFatal)
})

afterEach(() => {
  process.off('uncaughtException', onFatal)
  process.off('unhandledRejection', onFatal)
  vi.restoreAllMocks()
})

const diskError = (): Error => Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })

/** The emulator still answers, and nothing escaped to the process. */
async function expectAlive(emu: { url: string }): Promise<void> {
  const health = await fetch(`${emu.url}/_emulator/api/health`)
  expect(health.status).toBe(200)
  expect(fatal).toEqual([])
}

const createTask = (emu: TestEmulator, body: Record<string, unknown> = {}) =>
  emu.request({
    method: 'POST',
    url: '/router/v1/video/ent/v2/text2video',
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ model: 'videoq2', prompt: 'a lighthouse at dusk', ...body }),
  })

describe('a failure in background work', () => {
  it("fails the one video task whose step throws on the clock's timer; the other tasks finish", async () => {
    // A running clock and no dwell: the clock's own timer moves the tasks, as in a real run.
    const emu = await listeningEmulator({ clock: 'system', videoCreatedMs: 0, videoQueueingMs: 0, videoProcessingMs: 0 })
    const warn = vi.spyOn(emu.ctx, 'warn')
    const repo = emu.ctx.services['video-router'].tasks
    const recordState = repo.recordState
    let broken: string | null = null
    // The first step taken (after creation) cannot be written.
    vi.spyOn(repo, 'recordState').mockImplementation((taskId, state, at) => {
      if (state !== 'created' && broken === null) {
        broken = taskId
        throw diskError()
      }
      recordState(taskId, state, at)
    })
    const ids = (await Promise.all([createTask(emu), createTask(emu), createTask(emu)])).map((res) => res.body.task_id as string)
    await expect.poll(() => ids.map((id) => repo.get(id)!.state).every((state) => state === 'success' || state === 'failed'), { timeout: 5_000 }).toBe(true)
    await expectAlive(emu)
    expect(broken).not.toBeNull()
    for (const id of ids) expect(repo.get(id)!.state, id).toBe(id === broken ? 'failed' : 'success')
    expect(warn.mock.calls.flat().join('\n')).toMatch(new RegExp(`video task ${broken!}.*disk I/O error`))
  })

  it('fails the one delivery whose attempt cannot be recorded; the next one is delivered', async () => {
    const emu = await listeningEmulator()
    const warn = vi.spyOn(emu.ctx, 'warn')
    const receiver = await startSink()
    vi.spyOn(emu.ctx.services.callbacks, 'recordAttempt').mockImplementationOnce(() => {
      throw diskError()
    })
    await createTask(emu, { callback_url: receiver.url })
    await emu.clock.advance('1m')
    expect(await emu.drainCallbacks()).toBe(true)
    await expectAlive(emu)
    // Both were sent; the one whose attempt could not be written ends failed, not pending for ever.
    expect(receiver.received.map((r) => r.body.state)).toEqual(['processing', 'success'])
    const deliveries = (await emu.get('/_emulator/api/callbacks')).body.data as Array<{ id: string; status: string }>
    expect(deliveries.map((d) => d.status).sort()).toEqual(['delivered', 'failed'])
    const failed = deliveries.find((d) => d.status === 'failed')!
    expect(warn.mock.calls.flat().join('\n')).toMatch(new RegExp(`callback delivery ${failed.id}.*disk I/O error`))
  })

  it('survives a database read failing as a delivery finishes, and delivers the rest', async () => {
    const emu = await listeningEmulator()
    const warn = vi.spyOn(emu.ctx, 'warn')
    const receiver = await startSink(() => 200, { held: true })
    await createTask(emu, { callback_url: receiver.url })
    await emu.clock.advance('1m')
    await receiver.until(1)
    // The attempt under way is answered; what runs after it (is more due?) finds the database failing.
    const nextDue = vi.spyOn(emu.ctx.services.callbacks, 'nextDue').mockImplementationOnce(() => {
      throw diskError()
    })
    receiver.release()
    await expect.poll(() => nextDue.mock.calls.length).toBeGreaterThan(0)
    expect(await emu.drainCallbacks()).toBe(true)
    await expectAlive(emu)
    expect(receiver.received.map((r) => r.body.state)).toEqual(['processing', 'success'])
    const deliveries = (await emu.get('/_emulator/api/callbacks')).body.data as Array<{ status: string }>
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered'])
    expect(warn.mock.calls.flat().join('\n')).toMatch(/disk I\/O error/)
  })

  it('loses only the journal entry of a cut stream it cannot record', async () => {
    const emu = await listeningEmulator()
    const warn = vi.spyOn(emu.ctx, 'warn')
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { stream: { after_chunks: 2, cut: true } }, remaining: 1 })
    const chat = () =>
      fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about lighthouses' }], stream: true }),
      })
    // Recording the cut stream (when its connection closes) fails once.
    vi.spyOn(JournalSlots.prototype, 'writer').mockImplementationOnce(() => {
      throw new Error('cannot allocate memory')
    })
    const cut = await chat()
    await expect(cut.text()).rejects.toThrow()
    await expect.poll(() => warn.mock.calls.flat().join('\n')).toMatch(/journal.*cannot allocate memory/)
    await expectAlive(emu)
    // The next request is recorded as usual.
    const whole = await chat()
    expect(whole.status).toBe(200)
    await whole.text()
    await expect.poll(async () => ((await emu.get('/_emulator/api/journal')).body.data as Array<{ path: string }>).length).toBe(1)
    await expectAlive(emu)
  })
})
