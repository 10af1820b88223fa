// Uploads before their bodies are read: the account's room is reserved from the declared length (so
// parallel uploads cannot all pass the check), a few of one account's bodies are read at once (the
// rest wait, their bytes held by TCP) while another account's go by, and whatever leaves early (a
// refusal, a client gone while waiting or half way) gives back what it held.
import { request as httpRequest, type ClientRequest } from 'node:http'
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { BODIES_PER_ACCOUNT, bodyGateOf } from '../../../src/emulator/http/body-gate.ts'
import { MAX_FORM_BYTES } from '../../../src/emulator/modules/audio/audio-transcription.input.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { withHeartbeat } from '../../helpers/heartbeat.ts'

const MB = 1024 * 1024
const BOUNDARY = 'upload-gate-boundary'

type Emulator = TestEmulator & { url: string; port: number }

/** A form of one PDF of `size` bytes, cut in two: its head with the first byte of the file, and the rest. */
function form(size: number): { head: Buffer; rest: Buffer; length: number } {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%`)
  const rest = Buffer.concat([Buffer.from('PDF-1.7\n'), Buffer.alloc(size - 9, 0x20), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)])
  return { head, rest, length: head.length + rest.length }
}

interface Upload {
  req: ClientRequest
  answer: Promise<{ status: number; body: any }>
  /** Sends the rest of the form. */
  finish(): void
}

/** An upload whose head (and a byte of its file) is sent now and the rest on `finish()`: a slow client, made deterministic. */
function slowUpload(emu: Emulator, key: string, size: number, chunked = false): Upload {
  const { head, rest, length } = form(size)
  const req = httpRequest(`${emu.url}/api/v1/files`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(length) }),
    },
  })
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
    })
    req.on('error', reject)
  })
  req.write(head)
  return { req, answer, finish: () => req.end(rest) }
}

/** Waits until `probe` holds, checking on each turn of the event loop (no fixed sleep). */
async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000
  while (!probe()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function newAccount(emu: Emulator): Promise<string> {
  return (await emu.send('POST', '/_emulator/api/accounts', {})).body.data.standard_key as string
}

const fileCount = (emu: Emulator) => emu.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM files').get()!.n

describe('the upload gate', () => {
  it("reads two of one account's uploads at once, keeps the rest waiting unread, and lets another account's by", async () => {
    const emu = await listeningEmulator()
    const gate = bodyGateOf(emu.ctx)
    const mine = Array.from({ length: 4 }, () => slowUpload(emu, emu.keys.standard, MB))
    await until(() => gate.counts().inside === BODIES_PER_ACCOUNT && gate.counts().waiting === 2, 'two in, two waiting')
    // Another account is not held behind them, and nobody else waits meanwhile.
    const other = await newAccount(emu)
    const { result, heartbeat } = await withHeartbeat(emu.url, async () => {
      const theirs = slowUpload(emu, other, 1024)
      theirs.finish()
      return theirs.answer
    })
    expect(result.status).toBe(200)
    expect(heartbeat.slowestMs).toBeLessThan(500)
    expect(gate.counts()).toEqual({ inside: 2, waiting: 2 })
    for (const upload of mine) upload.finish()
    expect((await Promise.all(mine.map((u) => u.answer))).map((a) => a.status)).toEqual([200, 200, 200, 200])
    await until(() => gate.counts().inside === 0, 'everyone out')
    expect(gate.counts()).toEqual({ inside: 0, waiting: 0 })
    expect(fileCount(emu)).toBe(5)
  })

  it('lets a client that leaves while waiting, or half way through its body, out of the gate and gives its room back', async () => {
    const emu = await listeningEmulator()
    const gate = bodyGateOf(emu.ctx)
    const uploads = Array.from({ length: 3 }, () => slowUpload(emu, emu.keys.standard, 20 * MB))
    await until(() => gate.counts().inside === 2 && gate.counts().waiting === 1, 'two in, one waiting')
    for (const upload of uploads) {
      upload.answer.catch(() => undefined)
      upload.req.destroy()
    }
    await until(() => gate.counts().inside === 0 && gate.counts().waiting === 0, 'everyone out')
    // The room is whole again: four files of 24 MB fit, as they would not beside 60 MB still reserved.
    const next = Array.from({ length: 4 }, () => slowUpload(emu, emu.keys.standard, 24 * MB))
    for (const upload of next) upload.finish()
    expect((await Promise.all(next.map((u) => u.answer))).map((a) => a.status)).toEqual([200, 200, 200, 200])
  })
})

describe("the account's room, reserved before a body is read", () => {
  it('refuses an upload its declared length cannot fit beside the uploads under way, at once, and nothing is kept', async () => {
    const emu = await listeningEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    // 60 MB are kept already.
    emu.ctx.services.files.insert({
      id: 'or_file_kept',
      account_id: account.id,
      workspace_id: account.workspace_id,
      provider: 'openrouter',
      filename: 'kept.pdf',
      mime_type: 'application/pdf',
      purpose: 'user_data',
      size_bytes: 60 * MB,
      downloadable: 0,
      created_at: 0,
    })
    const first = slowUpload(emu, emu.keys.standard, 24 * MB)
    await until(() => bodyGateOf(emu.ctx).counts().inside === 1, 'the first upload in')
    const second = slowUpload(emu, emu.keys.standard, 20 * MB)
    const refused = await second.answer
    const reserved = form(24 * MB).length - 4096
    const asked = form(20 * MB).length - 4096
    expect(refused).toEqual({
      status: 413,
      body: {
        error: {
          code: 413,
          message: `The account's files hold ${60 * MB} bytes, and its 1 upload under way ${reserved} more; ${asked} more would pass the 100 MB the emulator keeps for one account: delete some first`,
          metadata: {
            field: 'file',
            location: 'body',
            used_bytes: 60 * MB,
            limit_bytes: 100 * MB,
            files: 1,
            limit_files: 10_000,
            pending_bytes: reserved,
            pending_files: 1,
          },
        },
      },
    })
    second.req.destroy()
    first.finish()
    expect((await first.answer).status).toBe(200)
    expect(fileCount(emu)).toBe(2)
  })

  it('takes an upload that declares no length (chunked): it reserves its file, and its bytes are checked when kept', async () => {
    const emu = await listeningEmulator()
    const upload = slowUpload(emu, emu.keys.standard, 2 * MB, true)
    upload.finish()
    const answer = await upload.answer
    expect(answer.status).toBe(200)
    expect(answer.body.size_bytes).toBe(2 * MB)
  })
})

describe('a transcription form', () => {
  it('declared longer than any form of 25 MB of audio and its fields can be is refused 413 before it is read, without waiting its turn', async () => {
    const emu = await listeningEmulator()
    // The account's turns are taken by two uploads that have not finished.
    const held = Array.from({ length: BODIES_PER_ACCOUNT }, () => slowUpload(emu, emu.keys.standard, MB))
    await until(() => bodyGateOf(emu.ctx).counts().inside === BODIES_PER_ACCOUNT, 'the turns taken')
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(emu.port, '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emu.keys.standard}\r\n` +
            `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${MAX_FORM_BYTES + 1}\r\n\r\n--x\r\n`,
        )
      })
      let received = ''
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString()
        if (received.endsWith('}}')) {
          socket.destroy()
          resolve(received)
        }
      })
      socket.on('error', reject)
    })
    expect(text.startsWith('HTTP/1.1 413')).toBe(true)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      error: {
        code: 413,
        message: 'Field `file` is larger than 25 MB, the most one upload may hold: send larger audio as base64 JSON in input_audio',
        metadata: { field: 'file', location: 'body', limit_bytes: 25 * MB },
      },
    })
    for (const upload of held) upload.finish()
    expect((await Promise.all(held.map((u) => u.answer))).map((a) => a.status)).toEqual([200, 200])
  })
})
