// The Files API over HTTP: uploads of each type (read from bytes), every refusal with its status and
// body (and no file kept), listing with each cursor style, the negotiated shapes, workspace and
// storage scoping (another account's workspace is a 403), downloads (server-side files only, byte for byte, as attachments), the account's
// room, and files in the state (export, import, reset, account reset).
import { describe, expect, it } from 'vitest'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'
import { SAMPLES } from '../../helpers/files.ts'
import { form } from '../audio/audio-helpers.ts'

const ADMIN = '/_emulator/api'
const NOBODY = '00000000-0000-4000-8000-000000000000'
const MB = 1024 * 1024

interface Part {
  name: string
  bytes: Buffer
  field?: string
  type?: string
}

async function upload(
  emu: TestEmulator,
  files: Part[],
  options: { fields?: Record<string, string>; query?: string; key?: string; headers?: Record<string, string> } = {},
) {
  const { payload, contentType } = await form(options.fields ?? {}, files)
  return emu.request({
    method: 'POST',
    url: `/api/v1/files${options.query ?? ''}`,
    headers: { authorization: `Bearer ${options.key ?? emu.keys.standard}`, 'content-type': contentType, ...options.headers },
    payload,
  })
}

const text = (name = 'notes.txt', body = 'hello files') => ({ name, bytes: Buffer.from(body) })
const fileCount = (emu: TestEmulator) => emu.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM files').get()!.n

async function account(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await emu.get(`${ADMIN}/accounts`)).body.data[0]
}

/** A file "created server-side" (downloadable), over the admin API. */
async function serverFile(emu: TestEmulator, bytes: Buffer, filename = 'report.bin', extra: Record<string, unknown> = {}) {
  const res = await emu.send('POST', `${ADMIN}/accounts/${(await account(emu)).id}/files`, { filename, content_base64: bytes.toString('base64'), ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data as { id: string; mime_type: string; downloadable: boolean }
}

describe('uploads', () => {
  it.each(SAMPLES.map((s) => [s.name, s] as const))('keeps %s and reports its type from its bytes', async (_name, sample) => {
    const emu = await testEmulator()
    // The declared type says nothing: the bytes decide.
    const res = await upload(emu, [{ name: sample.name, bytes: sample.bytes, type: 'application/x-whatever' }])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({
      _shape: 'openrouter',
      id: expect.stringMatching(/^or_file_[0-9A-Za-z]{20}$/),
      type: 'file',
      filename: sample.name,
      mime_type: sample.mime,
      size_bytes: sample.bytes.length,
      created_at: TEST_START,
      downloadable: false,
    })
    expect((await emu.get(`/api/v1/files/${res.body.id}`, emu.keys.standard)).body).toEqual(res.body)
  })

  it('gives the same ids for the same seed and calls', async () => {
    const ids = []
    for (let run = 0; run < 2; run++) {
      const emu = await testEmulator()
      ids.push((await upload(emu, [text()])).body.id)
    }
    expect(ids[0]).toBe(ids[1])
  })

  it('refuses each bad upload with its status and a body naming the field, and keeps nothing', async () => {
    const emu = await testEmulator()
    const unsupported = await upload(emu, [{ name: 'blob.bin', bytes: Buffer.from([0, 1, 2, 3, 4, 5]) }])
    expect(unsupported.status).toBe(400)
    expect(unsupported.body).toEqual({
      error: {
        code: 400,
        message:
          'Field `file` must be a PDF, a PNG/JPEG/GIF/WebP image, a DOCX/XLSX/PPTX document, an MP3/WAV/FLAC/OGG audio file, or UTF-8 text (its type is read from its bytes, not its name)',
        metadata: expect.objectContaining({ field: 'file', location: 'body' }),
      },
    })

    const empty = await upload(emu, [{ name: 'empty.txt', bytes: Buffer.alloc(0) }])
    expect(empty.status).toBe(400)
    expect(empty.body).toEqual({
      error: { code: 400, message: 'Field `file` is empty: empty files are rejected', metadata: expect.objectContaining({ field: 'file', location: 'body' }) },
    })

    const none = await upload(emu, [], { fields: { purpose: 'user_data' } })
    expect(none.status).toBe(400)
    expect(none.body).toEqual({ error: { code: 400, message: 'Field `file` is required', metadata: expect.objectContaining({ field: 'file' }) } })

    const asText = await upload(emu, [], { fields: { file: 'not a file' } })
    expect(asText.status).toBe(400)
    expect(asText.body.error.message).toBe('Field `file` must be a file part (with a filename), not a text field')

    const wrongField = await upload(emu, [{ ...text(), field: 'document' }])
    expect(wrongField.status).toBe(400)
    expect(wrongField.body.error).toMatchObject({
      message: 'Field `document` is a file, but the only file of this form is `file`',
      metadata: { field: 'document' },
    })

    const two = await upload(emu, [text('a.txt'), text('b.txt')])
    expect(two.status).toBe(400)
    expect(two.body.error).toMatchObject({ message: 'Field `file` must be one file: the form holds more', metadata: { field: 'file' } })

    const purpose = await upload(emu, [text()], { fields: { purpose: 'training' } })
    expect(purpose.status).toBe(400)
    expect(purpose.body.error).toMatchObject({
      message: expect.stringMatching(/^Field `purpose` must be one of assistants, batch, /),
      metadata: { field: 'purpose' },
    })

    const longName = await upload(emu, [text(`${'n'.repeat(256)}.txt`)])
    expect(longName.status).toBe(400)
    expect(longName.body.error).toMatchObject({ message: 'Field `file` has a name longer than 255 characters', metadata: { field: 'file' } })

    const json = await emu.send('POST', '/api/v1/files', { file: 'x' }, emu.keys.standard)
    expect(json.status).toBe(400)
    expect(json.body).toEqual({
      error: {
        code: 400,
        message: 'Unsupported Content-Type: send the file as multipart/form-data with a `file` part',
        metadata: { field: 'content-type', location: 'headers' },
      },
    })
    const plain = await emu.request({
      method: 'POST',
      url: '/api/v1/files',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'text/plain' },
      payload: 'hello',
    })
    expect(plain.status).toBe(400)
    expect(plain.body).toEqual(json.body)

    const broken = await emu.request({
      method: 'POST',
      url: '/api/v1/files',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
    })
    expect(broken.status).toBe(400)
    expect(broken.body.error).toMatchObject({ message: expect.stringMatching(/^Malformed multipart\/form-data body: /), metadata: { field: 'body' } })

    const badWorkspace = await upload(emu, [text()], { query: '?workspace_id=not-a-uuid' })
    expect(badWorkspace.status).toBe(400)
    expect(badWorkspace.body.error).toMatchObject({
      message: 'Query parameter `workspace_id` is not valid (must match format "uuid")',
      metadata: { field: 'workspace_id' },
    })
    const badProvider = await upload(emu, [text()], { query: '?provider=google' })
    expect(badProvider.status).toBe(400)
    expect(badProvider.body.error.metadata).toMatchObject({ field: 'provider', location: 'querystring' })

    expect(fileCount(emu)).toBe(0)
  })

  it('refuses a file over 25 MB with a 413 naming the field', async () => {
    const emu = await testEmulator()
    const res = await upload(emu, [{ name: 'big.txt', bytes: Buffer.alloc(25 * MB + 1, 0x61) }])
    expect(res.status).toBe(413)
    expect(res.body).toEqual({
      error: {
        code: 413,
        message: 'Field `file` is larger than 25 MB, the most one file may hold in the emulator',
        metadata: { field: 'file', location: 'body', limit_bytes: 25 * MB },
      },
    })
    expect(fileCount(emu)).toBe(0)
  })

  it("refuses a file that would pass the account's 100 MB with a 413, and keeps the files it has", async () => {
    const emu = await testEmulator()
    const { id, workspace_id } = await account(emu)
    // The account's files already hold 100 MB less 10 bytes (one row that says so; its bytes do not matter here).
    emu.ctx.services.files.insert({
      id: 'or_file_big',
      account_id: id,
      workspace_id,
      provider: 'openrouter',
      filename: 'big.txt',
      mime_type: 'text/plain',
      purpose: 'user_data',
      size_bytes: 100 * MB - 10,
      downloadable: 0,
      created_at: 0,
    })
    expect((await upload(emu, [text('fits.txt', '0123456789')])).status).toBe(200)
    const over = await upload(emu, [text('over.txt', 'x')])
    expect(over.status).toBe(413)
    expect(over.body).toEqual({
      error: {
        code: 413,
        message: `The account's files hold ${100 * MB} bytes; 1 more would pass the 100 MB the emulator keeps for one account: delete some first`,
        metadata: { field: 'file', location: 'body', used_bytes: 100 * MB, limit_bytes: 100 * MB, files: 2, limit_files: 10_000 },
      },
    })
    expect(fileCount(emu)).toBe(2)
    // Another account has its own room.
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    expect((await upload(emu, [text()], { key: other.standard_key })).status).toBe(200)
  })
})

describe('reading, listing and deleting', () => {
  it('reads, deletes (then 404s), with either kind of key', async () => {
    const emu = await testEmulator()
    const file = (await upload(emu, [text()], { key: emu.keys.management })).body
    expect((await emu.get(`/api/v1/files/${file.id}`, emu.keys.standard)).body).toEqual(file)
    const deleted = await emu.send('DELETE', `/api/v1/files/${file.id}`, undefined, emu.keys.standard)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ _shape: 'openrouter', id: file.id, type: 'file_deleted' })
    for (const res of [
      await emu.get(`/api/v1/files/${file.id}`, emu.keys.standard),
      await emu.send('DELETE', `/api/v1/files/${file.id}`, undefined, emu.keys.standard),
      await emu.get(`/api/v1/files/${file.id}/content`, emu.keys.standard),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: { code: 404, message: `File ${file.id} not found`, metadata: { field: 'file_id', location: 'params' } } })
    }
    const none = await emu.get('/api/v1/files')
    expect(none.status).toBe(401)
    expect(none.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })

  it('lists oldest first in pages, by the opaque cursor, `after` or `after_id`', async () => {
    const emu = await testEmulator()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await upload(emu, [text(`f${i}.txt`)])).body.id)
      await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 1000 })
    }
    const first = await emu.get('/api/v1/files?limit=2', emu.keys.standard)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ _shape: 'openrouter', has_more: true, first_id: ids[0], last_id: ids[1] })
    expect(first.body.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(0, 2))
    expect(JSON.parse(Buffer.from(first.body.cursor, 'base64').toString())).toEqual({ cursor: ids[1] })

    const second = await emu.get(`/api/v1/files?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`, emu.keys.standard)
    expect(second.body.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(2, 4))
    const last = await emu.get(`/api/v1/files?limit=2&cursor=${encodeURIComponent(second.body.cursor)}`, emu.keys.standard)
    expect(last.body).toMatchObject({ has_more: false, cursor: null, first_id: ids[4], last_id: ids[4] })

    expect((await emu.get(`/api/v1/files?after=${ids[2]}`, emu.keys.standard)).body.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(3))
    expect((await emu.get(`/api/v1/files?after_id=${ids[3]}`, emu.keys.standard)).body.data.map((f: { id: string }) => f.id)).toEqual(ids.slice(4))
    const all = await emu.get('/api/v1/files?order=asc', emu.keys.standard)
    expect(all.body).toMatchObject({ has_more: false, cursor: null })
    expect(all.body.data).toHaveLength(5)

    const empty = await testEmulator()
    expect((await empty.get('/api/v1/files', empty.keys.standard)).body).toEqual({
      _shape: 'openrouter',
      data: [],
      has_more: false,
      first_id: null,
      last_id: null,
      cursor: null,
    })
  })

  it('refuses each bad list query with a 400 naming the parameter', async () => {
    const emu = await testEmulator()
    const file = (await upload(emu, [text()])).body
    const cases: Array<[string, string, string]> = [
      ['limit=0', 'limit', 'Query parameter `limit` must be >= 1'],
      ['limit=1001', 'limit', 'Query parameter `limit` must be <= 1000'],
      ['order=desc', 'order', 'Query parameter `order` must be asc: only ascending order is supported'],
      ['order=sideways', 'order', 'Query parameter `order` must be one of asc, desc'],
      [`before_id=${file.id}`, 'before_id', 'Query parameter `before_id` is not supported: list forwards with `after_id`'],
      ['cursor=bm90IGpzb24', 'cursor', 'Query parameter `cursor` is not a cursor this API gave: pass the `cursor` of the previous page as it came'],
      ['after=or_file_nothing', 'after', 'Query parameter `after` names no file of this workspace (or_file_nothing)'],
      [`after=${file.id}&after_id=${file.id}`, 'after_id', 'Query parameter `after_id` cannot be combined with `after`: pass one cursor'],
      [`workspace_id=${NOBODY}`, 'workspace_id', `Workspace ${NOBODY} is not a workspace of this account: its files cannot be reached with this key`],
    ]
    for (const [query, field, message] of cases) {
      const res = await emu.get(`/api/v1/files?${query}`, emu.keys.standard)
      // A workspace that is not the caller's is a 403, the status the document declares for it.
      expect(res.status, query).toBe(field === 'workspace_id' ? 403 : 400)
      expect(res.body.error.message, query).toBe(message)
      expect(res.body.error.metadata, query).toMatchObject({ field, location: 'querystring' })
    }
  })

  it('answers in the shape negotiated: a provider storage in its shape, an Anthropic client in Anthropic’s', async () => {
    const emu = await testEmulator()
    const openai = await upload(emu, [text()], { query: '?provider=openai', fields: { purpose: 'assistants' } })
    expect(openai.status).toBe(200)
    expect(openai.body).toEqual({
      _shape: 'openai',
      id: expect.stringMatching(/^file-[0-9A-Za-z]{20}$/),
      object: 'file',
      bytes: 11,
      created_at: Date.parse(TEST_START) / 1000,
      filename: 'notes.txt',
      purpose: 'assistants',
      status: 'processed',
    })
    const listed = await emu.get('/api/v1/files?provider=openai', emu.keys.standard)
    expect(listed.body).toEqual({ _shape: 'openai', object: 'list', data: [openai.body], has_more: false, first_id: openai.body.id, last_id: openai.body.id })
    expect((await emu.send('DELETE', `/api/v1/files/${openai.body.id}?provider=openai`, undefined, emu.keys.standard)).body).toEqual({
      _shape: 'openai',
      id: openai.body.id,
      object: 'file',
      deleted: true,
    })

    const anthropic = await upload(emu, [text()], { headers: { 'anthropic-version': '2023-06-01' } })
    expect(anthropic.body).toMatchObject({ _shape: 'anthropic', id: expect.stringMatching(/^or_file_/), type: 'file', mime_type: 'text/plain' })
    const viaProvider = await upload(emu, [text()], { query: '?provider=anthropic' })
    expect(viaProvider.body).toMatchObject({ _shape: 'anthropic', id: expect.stringMatching(/^file_[0-9A-Za-z]{20}$/) })
    const list = await emu.request({
      method: 'GET',
      url: '/api/v1/files',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'anthropic-version': '2023-06-01' },
    })
    expect(list.body).toEqual({ _shape: 'anthropic', data: [anthropic.body], has_more: false, first_id: anthropic.body.id, last_id: anthropic.body.id })
  })

  it('keeps storages and workspaces apart: a file is found only where it was put', async () => {
    const emu = await testEmulator()
    const own = (await upload(emu, [text()])).body
    const inOpenAI = (await upload(emu, [text()], { query: '?provider=openai' })).body
    expect((await emu.get(`/api/v1/files/${inOpenAI.id}`, emu.keys.standard)).status).toBe(404)
    expect((await emu.get(`/api/v1/files/${own.id}?provider=openai`, emu.keys.standard)).status).toBe(404)

    const workspace = (await emu.send('POST', '/api/v1/workspaces', { name: 'Research', slug: 'research' }, emu.keys.management)).body.data
    const there = await upload(emu, [text('there.txt')], { query: `?workspace_id=${workspace.id}` })
    expect(there.status).toBe(200)
    expect((await emu.get('/api/v1/files', emu.keys.standard)).body.data.map((f: { id: string }) => f.id)).toEqual([own.id])
    expect((await emu.get(`/api/v1/files?workspace_id=${workspace.id}`, emu.keys.standard)).body.data).toEqual([there.body])
    expect((await emu.get(`/api/v1/files/${there.body.id}`, emu.keys.standard)).status).toBe(404)

    // Another account's workspace and files are as unknown as none.
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    const theirs = await upload(emu, [text()], { query: `?workspace_id=${other.workspace_id}` })
    expect(theirs.status).toBe(403)
    expect(theirs.body).toEqual({
      error: {
        code: 403,
        message: `Workspace ${other.workspace_id} is not a workspace of this account: its files cannot be reached with this key`,
        metadata: { field: 'workspace_id', location: 'querystring' },
      },
    })
    expect((await emu.get(`/api/v1/files/${own.id}?workspace_id=${other.workspace_id}`, emu.keys.standard)).status).toBe(403)
    expect((await emu.get(`/api/v1/files/${own.id}`, other.standard_key)).status).toBe(404)
    expect((await emu.send('DELETE', `/api/v1/files/${own.id}`, undefined, other.standard_key)).status).toBe(404)
    expect((await emu.get(`/api/v1/files/${own.id}`, emu.keys.standard)).status).toBe(200)
  })
})

describe('downloads', () => {
  it('refuse an upload with 400, as the real gateway does: only server-side files are downloadable', async () => {
    const emu = await testEmulator()
    const file = (await upload(emu, [text()])).body
    const res = await emu.get(`/api/v1/files/${file.id}/content`, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: {
        code: 400,
        message: `File ${file.id} is not downloadable: only files created server-side can be downloaded, and uploaded files cannot`,
        metadata: { field: 'file_id', location: 'params', downloadable: false },
      },
    })
  })

  it('give a server-side file byte for byte, as an attachment that is never sniffed or rendered', async () => {
    const emu = await testEmulator()
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256))
    const file = await serverFile(emu, bytes, 'résumé "final".bin')
    expect(file).toMatchObject({ downloadable: true, mime_type: 'application/octet-stream' })
    const res = await emu.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}/content`, headers: { authorization: `Bearer ${emu.keys.standard}` } })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(bytes)).toBe(true)
    expect(res.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
      'content-disposition': `attachment; filename="r_sum_ _final_.bin"; filename*=UTF-8''${encodeURIComponent('résumé "final".bin')}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })

    // HTML a server-side file holds is still an attachment of plain bytes.
    const html = await serverFile(emu, Buffer.from('<script>alert(1)</script>'), 'page.html')
    expect(html.mime_type).toBe('text/plain')
    const page = await emu.app.inject({ method: 'GET', url: `/api/v1/files/${html.id}/content`, headers: { authorization: `Bearer ${emu.keys.standard}` } })
    expect(page.headers['content-type']).toBe('application/octet-stream')
    expect(page.headers['content-disposition']).toMatch(/^attachment;/)
  })

  it('refuse a bad server-side file over the admin API', async () => {
    const emu = await testEmulator()
    const { id } = await account(emu)
    const res = await emu.send('POST', `${ADMIN}/accounts/${id}/files`, { filename: 'x', content_base64: 'not base64!' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ message: 'Field `content_base64` is not valid base64', metadata: { field: 'content_base64' } })
    expect((await emu.send('POST', `${ADMIN}/accounts/acct_nobody/files`, { filename: 'x', content_base64: 'YQ==' })).status).toBe(404)
    expect(fileCount(emu)).toBe(0)
  })
})

describe('files in the state', () => {
  it('round-trip byte for byte through export and import, go on reset and with their account', async () => {
    const emu = await testEmulator()
    const bytes = Buffer.from([0, 255, 1, 254, 2, 253])
    const file = await serverFile(emu, bytes)
    const exported = (await emu.get(`${ADMIN}/export`)).body
    expect(exported.tables.files).toHaveLength(1)
    await emu.send('POST', `${ADMIN}/reset`, {})
    expect(fileCount(emu)).toBe(0)
    expect((await emu.send('POST', `${ADMIN}/import`, exported)).status).toBe(200)
    const back = await emu.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}/content`, headers: { authorization: `Bearer ${emu.keys.standard}` } })
    expect(back.rawPayload.equals(bytes)).toBe(true)
    // The next id does not collide with an imported one.
    expect((await upload(emu, [text()])).status).toBe(200)

    const lying = structuredClone(exported)
    lying.tables.files[0].size_bytes = 99
    const refused = await emu.send('POST', `${ADMIN}/import`, lying)
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe('Field `tables.files[0].size_bytes` must be the length of its parts (6 bytes)')

    await emu.send('POST', `${ADMIN}/accounts/${(await account(emu)).id}/reset`, {})
    expect(fileCount(emu)).toBe(0)
  })
})
