// Inputs that once stalled or broke the emulator: bodies nested thousands deep, secrets in query
// strings and headers, a disk that refuses writes, a transaction rolled back after it billed.
import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '../../../src/emulator/http/json-body.ts'
import { redactUrl } from '../../../src/emulator/core/redact.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const EMBEDDING_MODEL = 'openai/text-embedding-3-small'
const ROUTER = '/router/v1/video/ent/v2'

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`
const json = (emu: TestEmulator, method: 'POST' | 'PUT', url: string, payload: string, headers: Record<string, string> = {}) =>
  emu.request({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload })

describe('bodies nested deeper than 64 levels', () => {
  const refused = {
    code: 400,
    message: 'Request body nests objects and arrays more than 64 levels deep; no request of this API needs that many',
    metadata: { field: 'body', location: 'body', limit: 64 },
  }

  it('are refused before anything reads or stores them, and the journal and HAR still read', async () => {
    const emu = await testEmulator()
    const auth = { authorization: `Bearer ${emu.keys.standard}` }
    const deep = await json(emu, 'POST', '/api/v1/embeddings', `{"model":"${EMBEDDING_MODEL}","input":${nested(5000)}}`, auth)
    expect(deep.status).toBe(400)
    expect(deep.body).toEqual({ error: refused })
    const filters = await json(emu, 'POST', '/api/v1/guardrails', `{"name":"g","content_filters":${nested(5000)}}`, {
      authorization: `Bearer ${emu.keys.management}`,
    })
    expect(filters.body).toEqual({ error: refused })
    // The video router refuses in its own envelope; the admin API in the main one.
    const video = await json(emu, 'POST', `${ROUTER}/text2video`, `{"model":"videoq2","prompt":${nested(100)}}`, auth)
    expect(video.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'bad request' })
    expect(video.headers['x-emulator-detail']).toBe(refused.message)
    expect((await json(emu, 'POST', '/_emulator/api/import', nested(5000))).body).toEqual({ error: refused })

    const list = await emu.get('/_emulator/api/journal')
    expect(list.status).toBe(200)
    expect(list.body.data.length).toBeGreaterThanOrEqual(3)
    for (const entry of list.body.data) expect(entry.request.body).toBeNull()
    expect((await emu.get(`/_emulator/api/journal/${list.body.data[0].id}`)).status).toBe(200)
    expect((await emu.get('/_emulator/api/journal/har')).status).toBe(200)
  })

  it('are counted outside strings, and 64 levels still parse', async () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false)
    expect(nestsDeeperThan(nested(65), 64)).toBe(true)
    expect(nestsDeeperThan(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`, 64)).toBe(false)
    const emu = await testEmulator()
    const res = await json(emu, 'POST', '/api/v1/embeddings', `{"model":"${EMBEDDING_MODEL}","input":${nested(63)}}`, {
      authorization: `Bearer ${emu.keys.standard}`,
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).not.toMatch(/levels deep/)
  })
})

describe('secrets in a request', () => {
  it('are redacted by name in the journal list, a single entry and the HAR', async () => {
    const emu = await testEmulator()
    const secrets = ['sk-gw-v1-query-secret', 'plain-key-value', 'admin-token-value', 'custom-header-secret', 'sig-value']
    const res = await emu.request({
      method: 'GET',
      url: `/api/v1/models?api_key=${secrets[0]}&key=${secrets[1]}&X-Signature=${secrets[4]}&category=programming`,
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'x-emulator-admin-token': secrets[2]!, 'x-custom-api-key': secrets[3]! },
    })
    expect(res.status).toBe(200)
    const list = (await emu.get('/_emulator/api/journal')).body.data
    const entry = (await emu.get(`/_emulator/api/journal/${list[0].id}`)).body.data
    expect(entry.query).toBe('api_key=[redacted]&key=[redacted]&X-Signature=[redacted]&category=programming')
    expect(entry.request.headers).toMatchObject({ authorization: '[redacted]', 'x-emulator-admin-token': '[redacted]', 'x-custom-api-key': '[redacted]' })
    const har = (await emu.get('/_emulator/api/journal/har')).body
    expect(har.log.entries[0].request.queryString).toContainEqual({ name: 'api_key', value: '[redacted]' })
    for (const text of [JSON.stringify(list), JSON.stringify(entry), JSON.stringify(har)]) {
      for (const secret of secrets) expect(text).not.toContain(secret)
      expect(text).not.toContain(emu.keys.standard)
    }
  })

  it('are redacted from the URL a log line shows', () => {
    expect(redactUrl('/api/v1/models?token=abc&page=2&Api-Key=x')).toBe('/api/v1/models?token=[redacted]&page=2&Api-Key=[redacted]')
    expect(redactUrl('/api/v1/models')).toBe('/api/v1/models')
  })
})

describe('a disk that refuses writes', () => {
  const storageError = {
    code: 503,
    message:
      "The emulator's database could not be written (is the disk full or read-only?): nothing was changed, and reads still work; free some space and retry",
    metadata: { reason: 'storage_unavailable' },
  }

  it('answers a write 503 once the disk is full, and keeps serving reads', async () => {
    const emu = await testEmulator()
    const db = emu.ctx.db
    // A page limit just above what is used: as a full disk, writes that need a new page fail.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 1}`)
    let full: Awaited<ReturnType<TestEmulator['send']>> | undefined
    for (let i = 0; i < 500 && full === undefined; i++) {
      const res = await emu.send('POST', '/api/v1/guardrails', { name: `guardrail ${i}`, description: 'x'.repeat(200) }, emu.keys.management)
      if (res.status !== 201) full = res
    }
    expect(full?.status).toBe(503)
    expect(full?.headers['retry-after']).toBe('5')
    expect(full?.body).toEqual({ error: storageError })
    const listed = (await emu.get('/api/v1/guardrails?limit=100', emu.keys.management)).body
    expect(listed.data.every((g: { name: string }) => g.name !== `guardrail ${listed.total_count}`)).toBe(true)
    expect((await emu.get('/api/v1/keys', emu.keys.management)).status).toBe(200)
    expect((await emu.get('/_emulator/api/journal')).status).toBe(200)
  })

  it('answers writes 503 in the envelope of each API when the database is read-only', async () => {
    const emu = await testEmulator()
    const guardrailsBefore = (await emu.get('/api/v1/guardrails', emu.keys.management)).body
    emu.ctx.db.pragma('query_only = ON')
    const create = await emu.send('POST', '/api/v1/guardrails', { name: 'one more' }, emu.keys.management)
    expect(create.status).toBe(503)
    expect(create.body).toEqual({ error: storageError })
    const video = await emu.send('POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt: 'a fox' }, emu.keys.standard)
    expect(video.status).toBe(503)
    expect(video.body).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: storageError.message })
    expect((await emu.get('/api/v1/guardrails', emu.keys.management)).body).toEqual(guardrailsBefore)
    expect((await emu.get('/api/v1/credits', emu.keys.management)).status).toBe(200)
  })
})

describe('a write rolled back after it billed', () => {
  it('lists no usage among the request effects, and bills nothing', async () => {
    const emu = await testEmulator()
    const usageRows = () => emu.ctx.db.prepare('SELECT count(*) FROM usage').pluck().get()
    const before = { usage: usageRows(), credits: (await emu.get('/api/v1/credits', emu.keys.management)).body }
    // The task's own row fails after its usage row was written, in the same transaction.
    emu.ctx.db.exec(`CREATE TRIGGER refuse_tasks BEFORE INSERT ON video_tasks BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`)
    const res = await emu.send('POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt: 'a fox' }, emu.keys.standard)
    expect(res.status).toBe(500)
    const [entry] = (await emu.get('/_emulator/api/journal')).body.data
    expect(entry).toMatchObject({ status: 500, effects: { usage: [], tasks: [], charges: [], callbacks: [] } })
    expect(usageRows()).toBe(before.usage)
    expect((await emu.get('/api/v1/credits', emu.keys.management)).body).toEqual(before.credits)
    // A write that holds is listed as before.
    emu.ctx.db.exec('DROP TRIGGER refuse_tasks')
    const ok = await emu.send('POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt: 'a fox' }, emu.keys.standard)
    expect(ok.status).toBe(200)
    const [done] = (await emu.get('/_emulator/api/journal')).body.data
    expect(done.effects.usage).toHaveLength(1)
    expect(done.effects.tasks).toEqual([ok.body.task_id])
  })
})
