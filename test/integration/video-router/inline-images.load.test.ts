// Large inline images beside another account's heartbeat: a video-router create with three 60 MB
// images (base64 of 45 MB each), one whose last image is not base64 at its very end, and a gateway
// video with a 60 MB first frame. Each body is read as it arrives (http/media-body.ts) and each image
// checked a slice at a time (media/image-inspect.ts); the answers are those of the same request with
// small images. The bodies are sent by a process of their own, so their writing is not the heartbeat's wait.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { anotherAccountKey, withHeartbeat } from '../../helpers/heartbeat.ts'
import { png } from '../../helpers/images.ts'
import { postManyFromChild, type Answer } from '../../helpers/post-many.ts'

const MB = 1024 * 1024
/** A 64x36 PNG's base64, then `A`s (zero bytes) to `chars` characters: 60 MB of them is an image of 45 MB. */
function largePng(chars: number): string {
  const head = png(64, 36).toString('base64').replace(/=+$/, '')
  return head.slice(0, head.length - (head.length % 4)).padEnd(chars, 'A')
}
const LARGE = largePng(60 * MB)

/** POSTs `body` once from a child process, beside a heartbeat of another account; its answer and the slowest beat. */
async function postBeside(emu: TestEmulator & { url: string }, path: string, body: unknown): Promise<{ answer: Answer; slowestMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'inline-images-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const bodyPath = join(dir, 'body.json')
  writeFileSync(bodyPath, JSON.stringify(body))
  const other = await anotherAccountKey(emu.url)
  const { result, heartbeat } = await withHeartbeat(
    emu.url,
    () =>
      postManyFromChild({
        url: `${emu.url}${path}`,
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        bodyPath,
        count: 1,
      }),
    {},
    { key: other },
  )
  expect(heartbeat.failures).toEqual([])
  return { answer: result[0]!, slowestMs: heartbeat.slowestMs }
}

describe('large inline images, beside another account', () => {
  it('a router create with three 60 MB images holds nobody else for 500 ms, and makes the task small images make', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const { answer, slowestMs } = await postBeside(emu, '/router/v1/video/ent/v2/reference2video', {
      model: 'videoq2',
      images: [LARGE, LARGE, LARGE],
      prompt: 'three',
    })
    expect(slowestMs).toBeLessThan(500)
    expect(answer).toEqual({ status: 200, body: { task_id: expect.stringMatching(/^\d{18}$/), state: 'created', type: 'reference2video', model: 'videoq2' } })
    const small = await fetch(`${emu.url}/router/v1/video/ent/v2/reference2video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'videoq2', images: [largePng(1000), largePng(1000), largePng(1000)], prompt: 'three' }),
    })
    expect({ ...((await small.json()) as object), task_id: 'x' }).toEqual({ ...answer.body, task_id: 'x' })
  })

  it('a 60 MB image that is not base64 in its last character is refused as a small one is, holding nobody', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const { answer, slowestMs } = await postBeside(emu, '/router/v1/video/ent/v2/reference2video', {
      model: 'videoq2',
      images: [LARGE, LARGE, `${LARGE.slice(0, -1)}!`],
      prompt: 'three',
    })
    expect(slowestMs).toBeLessThan(500)
    expect(answer).toEqual({
      status: 400,
      body: { code: 400, reason: 'ImageFormatInvalid', message: 'invalid image format: images[2]', metadata: { trace_id: expect.any(String) } },
    })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })

  it('a gateway video with a 60 MB first frame holds nobody, and its job notes the frame it read', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const frame = `data:image/png;base64,${LARGE}`
    const { answer, slowestMs } = await postBeside(emu, '/api/v1/videos', {
      model: 'google/veo-3.1',
      prompt: 'a harbour',
      frame_images: [{ type: 'image_url', image_url: { url: frame }, frame_type: 'first_frame' }],
    })
    expect(slowestMs).toBeLessThan(500)
    expect(answer.status).toBe(202)
    const stored = (await emu.get(`/_emulator/api/video/tasks/${answer.body.id as string}`)).body.data.request
    expect(stored.frame_images).toEqual([{ frame_type: 'first_frame', url: `(inline png image, 64x36, ${(LARGE.length / 4) * 3} bytes)` }])
    const bad = await postBeside(emu, '/api/v1/videos', {
      model: 'google/veo-3.1',
      prompt: 'a harbour',
      frame_images: [{ type: 'image_url', image_url: { url: `${frame.slice(0, -1)}!` }, frame_type: 'first_frame' }],
    })
    expect(bad.slowestMs).toBeLessThan(500)
    expect(bad.answer).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Field `frame_images[0].image_url.url` the image is not valid base64 (or is not an image at all)',
          metadata: { field: 'frame_images[0].image_url.url', location: 'body', issue: 'the image is not valid base64 (or is not an image at all)' },
        },
      },
    })
  })
})
