// A replayed text request is read and searched once: under --on-miss error (and upstream) the
// recordings hook reads the body into the engine's ask and searches the recordings before the handler,
// and the handler and the engine take what it found instead of doing it again. Counted by spies that
// call through (nothing of the emulator is replaced).
import { describe, expect, it, vi } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'
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
    const takes = vi.spyOn(emu.ctx.services.recordings, 'foundFor')
    const res = await emu.send('POST', url, body, emu.keys.standard)
    expect(res.status).toBe(200)
    // The hook reads and searches; the handler's reading is the memo's, the engine takes what was found.
    expect(reads).toBe(1)
    expect(searches).toHaveBeenCalledTimes(1)
    expect(takes).toHaveBeenCalledTimes(1)
    expect(takes.mock.results[0]!.value).toMatchObject({ file: 'chat-1.json' })
  })
})
