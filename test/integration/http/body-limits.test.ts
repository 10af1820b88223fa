// A body declared larger than its route takes is answered 413 at once, before a byte of it is read, on
// every route whatever reads its body (JSON, a form, the media reader, a type no parser takes), in the
// envelope of the API the route belongs to. Sent over a socket that declares 1 GiB and sends 200
// bytes: an answer that waited for the body would come only at the request timeout.
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { MAX_BASE64_CHARS } from '../../../src/emulator/modules/audio/audio.schemas.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MB = 1024 * 1024
const GIB = 1024 * MB

interface RawAnswer {
  status: number
  headers: string
  body: any
  ms: number
}

/** Sends the head of a POST declaring `length` bytes and then 200 of them; the answer as soon as it is whole. */
function declare(emu: TestEmulator & { port: number }, path: string, headers: Record<string, string>, length = GIB): Promise<RawAnswer> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const socket = connect(emu.port, '127.0.0.1', () => {
      const head = Object.entries({ host: `127.0.0.1:${emu.port}`, ...headers, 'content-length': String(length) })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${'{'.repeat(200)}`)
    })
    let received = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end === -1) return
      const head = received.subarray(0, end).toString()
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0)
      if (received.length - end - 4 < length) return
      socket.destroy()
      resolve({
        status: Number(head.split(' ')[1]),
        headers: head,
        body: JSON.parse(received.subarray(end + 4, end + 4 + length).toString()),
        ms: performance.now() - started,
      })
    })
    socket.on('error', reject)
  })
}

const tooLarge = (limitBytes: number) => ({
  error: {
    code: 413,
    message: `Request payload too large: this route takes bodies up to ${Number((limitBytes / MB).toFixed(2))} MB`,
    metadata: { limit_bytes: limitBytes },
  },
})
/** A transcription's JSON: its base64 audio and 64 KB for the rest. */
const TRANSCRIPTION_LIMIT = MAX_BASE64_CHARS + 64 * 1024

describe('a body declared over its route limit', () => {
  it('is a 413 at once on JSON, form, media and admin routes, in the main envelope, naming the limit', async () => {
    const emu = await listeningEmulator()
    const standard = { authorization: `Bearer ${emu.keys.standard}` }
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/api/v1/chat/completions', { ...standard, 'content-type': 'application/json' }, 32 * MB],
      ['/api/v1/keys', { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' }, MB],
      ['/api/v1/files', { ...standard, 'content-type': 'multipart/form-data; boundary=x' }, 26 * MB],
      ['/api/v1/files', { ...standard, 'content-type': 'image/png' }, 26 * MB],
      ['/api/v1/audio/transcriptions', { ...standard, 'content-type': 'multipart/form-data; boundary=x' }, TRANSCRIPTION_LIMIT],
      ['/api/v1/audio/transcriptions', { ...standard, 'content-type': 'application/json' }, TRANSCRIPTION_LIMIT],
      ['/api/v1/videos', { ...standard, 'content-type': 'application/json' }, 160 * MB],
      ['/api/v1/images', { ...standard, 'content-type': 'application/json' }, 32 * MB],
      ['/api/v1/embeddings', { ...standard, 'content-type': 'text/plain' }, 32 * MB],
      ['/_emulator/api/accounts', { 'content-type': 'application/json' }, MB],
    ]
    for (const [path, headers, limit] of cases) {
      const answer = await declare(emu, path, headers)
      expect(answer.status, `${path} ${headers['content-type']}`).toBe(413)
      expect(answer.body, path).toEqual(tooLarge(limit))
      expect(answer.ms, path).toBeLessThan(1000)
    }
  })

  it("is answered in the video router's envelope and the Messages API's", async () => {
    const emu = await listeningEmulator()
    const standard = { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' }
    const router = await declare(emu, '/router/v1/video/ent/v2/text2video', standard)
    expect(router.status).toBe(413)
    expect(router.body).toEqual({
      code: 413,
      reason: 'RequestTooLarge',
      message: 'Request payload too large: this route takes bodies up to 200 MB',
      metadata: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
    })
    const messages = await declare(emu, '/api/v1/messages', standard)
    expect(messages.status).toBe(413)
    expect(messages.body).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Request payload too large: this route takes bodies up to 32 MB', error_type: 'payload_too_large' },
      metadata: { limit_bytes: 32 * MB },
      request_id: expect.stringMatching(/^req_/),
    })
    expect(Math.max(router.ms, messages.ms)).toBeLessThan(1000)
  })

  it('still comes after authentication: an unknown key is a 401, not a 413', async () => {
    const emu = await listeningEmulator()
    const answer = await declare(emu, '/api/v1/files', { authorization: 'Bearer sk-gw-v1-nope', 'content-type': 'multipart/form-data; boundary=x' })
    expect(answer.status).toBe(401)
  })

  it('leaves a body declared within the limit to be read: a short form is refused for what it holds', async () => {
    const emu = await listeningEmulator()
    const body = '--x\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--x--\r\n'
    const res = await fetch(`${emu.url}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'multipart/form-data; boundary=x' },
      body,
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.message).toBe('Field `file` is required')
  })
})
