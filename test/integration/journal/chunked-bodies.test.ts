// A body sent without a declared length (chunked) is sized by what its reader counted, so the journal
// notes a large one instead of copying it whole on the event loop (a 180 MB chunked video body held it
// 0.6 s), and records a small one as it does a body with a Content-Length.
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

/** POSTs `text` as a chunked body (no Content-Length), in pieces of 1 MB. */
async function postChunked(url: string, key: string, text: string): Promise<Response> {
  const bytes = Buffer.from(text)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 1024 * 1024) controller.enqueue(bytes.subarray(at, at + 1024 * 1024))
      controller.close()
    },
  })
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
}

const lastEntry = async (base: string, operation: string) => {
  const list = (await (await fetch(`${base}/_emulator/api/journal?operation=${operation}`)).json()) as { data: Array<{ id: number }> }
  return (await (await fetch(`${base}/_emulator/api/journal/${list.data[0]!.id}`)).json()) as {
    data: { request: { body: string | null; body_bytes: number } }
  }
}

describe('chunked request bodies in the journal', () => {
  it('notes a large one by the size its reader counted, and keeps a small one', async () => {
    const emu = await listeningEmulator()
    // A video router task with one inline image of 6 MB: refused (not a real image), but read whole first.
    const image = 'A'.repeat(6 * 1024 * 1024)
    const big = JSON.stringify({ model: 'videoq2-turbo', images: [`data:image/png;base64,${image}`] })
    const refused = await postChunked(`${emu.url}/router/v1/video/ent/v2/img2video`, emu.keys.standard, big)
    expect(refused.status).toBe(400)
    const large = await lastEntry(emu.url, 'video.img2video')
    expect(large.data.request.body_bytes).toBe(Buffer.byteLength(big))
    expect(large.data.request.body).toBe(`(${Buffer.byteLength(big)} bytes, too large to record)`)

    const small = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    expect((await postChunked(`${emu.url}/api/v1/chat/completions`, emu.keys.standard, small)).status).toBe(200)
    const kept = await lastEntry(emu.url, 'chat.create')
    expect(kept.data.request.body_bytes).toBe(Buffer.byteLength(small))
    expect(kept.data.request.body).toBe(small)
  })
})
