// A replayed text request is read and searched once: under --on-miss error (and upstream) no hook reads
// it before the handler; the engine asks its answer sources in their order (the recordings, the
// upstream, its own written answers), each taking the ask the handler read. Counted by spies that call
// through (nothing of the emulator is replaced).
import { describe, expect, it, vi } from 'vitest'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'
import { folderWith, MODEL, PARIS, QUESTION, SYSTEM } from './replay-helpers.ts'

const BODIES = {
  '/api/v1/chat/completions': {
    model: MODEL,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ],
    max_tokens: 100,
  },
  '/api/v1/responses': { model: MODEL, instructions: SYSTEM, input: QUESTION, max_output_tokens: 100 },
  '/api/v1/messages': { model: MODEL, system: SYSTEM, messages: [{ role: 'user', content: QUESTION }], max_tokens: 100 },
}

describe('a replayed request under --on-miss error', () => {
  it.each(Object.entries(BODIES))('%s: its body is read once and the recordings searched once', async (url, body) => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': { ...PARIS, times: 5 } }), onMiss: 'error' })
    // Each time a surface's own reader runs (under the parse-once memo, which is called through).
    const ports = emu.ctx.services.text.ports
    const parseOnce = ports.parseOnce.bind(ports)
    let reads = 0
    vi.spyOn(ports, 'parseOnce').mockImplementation((b, parse) =>
      parseOnce(b, () => {
        reads++
        return parse()
      }),
    )
    const searches = vi.spyOn(emu.ctx.services.recordings, 'findText')
    const res = await emu.send('POST', url, body, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(reads).toBe(1)
    expect(searches).toHaveBeenCalledTimes(1)
    expect(searches.mock.results[0]!.value).toMatchObject({ file: 'chat-1.json' })
  })
})

describe("the text engine's answer sources", () => {
  it('are the recordings, then the upstream under --on-miss upstream, then the written answers', async () => {
    const upstream = await listeningEmulator()
    const emu = await testEmulator({ replay: folderWith({}), upstream: upstream.url, onMiss: 'upstream' })
    expect(emu.ctx.services.text.ports.sources().map((s) => [s.name, s.order])).toEqual([
      ['recordings', 100],
      ['upstream', 500],
      ['written', 1000],
    ])
    const local = await testEmulator({ replay: folderWith({}), onMiss: 'error' })
    expect(local.ctx.services.text.ports.sources().map((s) => s.name)).toEqual(['recordings', 'written'])
  })
})
