// The admin API in the OpenAPI document: every operation declares its 2xx answer (a JSON schema, or a
// media type for the downloads and the event stream) and its 4xx envelope, and what each route really
// answers, in its main states, is valid against the document it is served with.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { describe, expect, it, onTestFinished } from 'vitest'
import { dataUri, png } from '../../helpers/images.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

type Json = Record<string, any>
interface Operation {
  path: string
  method: string
  operationId: string
  responses: Record<string, Json>
}

async function documentOf(emu: TestEmulator) {
  const doc = (await emu.get(`${ADMIN}/openapi.json`)).body as Json
  const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, operationId: op.operationId, responses: op.responses })),
  )
  return { doc, admin: operations.filter((o) => o.path.startsWith(`${ADMIN}/`)) }
}

const pointer = (...segments: string[]): string => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

describe('the admin API in the OpenAPI document', () => {
  it('declares a 2xx answer and the error envelope for every admin operation', async () => {
    const emu = await testEmulator()
    const { admin } = await documentOf(emu)
    expect(admin.length).toBeGreaterThan(55)
    for (const op of admin) {
      const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status))
      expect(success, op.operationId).toHaveLength(1)
      const [, response] = success[0]!
      expect(response.description, op.operationId).toEqual(expect.any(String))
      const media = Object.entries(response.content as Record<string, { schema: Json }>)
      expect(media, op.operationId).toHaveLength(1)
      const [type, { schema }] = media[0]!
      if (type === 'application/json') {
        // JSON answers are objects described property by property (this document itself: an open object).
        expect(schema.type, op.operationId).toBe('object')
        expect(schema.properties ?? schema.additionalProperties, op.operationId).toBeTruthy()
      } else if (op.operationId === 'admin.journal.media') {
        // A file an answer carried, as it was sent (its own media type on the wire).
        expect([type, schema.type], op.operationId).toEqual(['application/octet-stream', 'string'])
      } else {
        // The event stream is text.
        expect([type, schema.type], op.operationId).toEqual(['text/event-stream', 'string'])
      }
      expect((op.responses['4XX'] ?? op.responses.default)!.content['application/json'].schema, op.operationId).toEqual({ $ref: '#/components/schemas/Error' })
    }
  })

  it('documents the stable contract’s shapes', async () => {
    const emu = await testEmulator()
    const { admin } = await documentOf(emu)
    const schemaOf = (id: string, status = '200') => admin.find((o) => o.operationId === id)!.responses[status]!.content['application/json'].schema
    expect(schemaOf('admin.health')).toMatchObject({ required: ['status', 'version'], properties: { status: { type: 'string', enum: ['ok'] } } })
    const created = schemaOf('admin.accounts.create', '201').properties.data
    expect(created.required).toEqual(expect.arrayContaining(['id', 'name', 'management_key', 'standard_key', 'credits_usd']))
    expect(schemaOf('admin.clock.advance').properties.data.properties.mode.enum).toEqual(['system', 'manual'])
    // A revoked key's token may be gone (an imported state): the document says so.
    expect(schemaOf('admin.keys.list').properties.data.items.properties.key.type).toEqual(['string', 'null'])
    expect(schemaOf('admin.journal.list').properties.data.items.required).toEqual(
      expect.arrayContaining(['id', 'time', 'method', 'path', 'operation', 'status', 'duration_ms', 'fault']),
    )
    // The admin objects are open: a field added to a view is served before its schema names it.
    expect(schemaOf('admin.accounts.get').properties.data.additionalProperties).toBe(true)
  })
})

describe('admin answers against the served document', () => {
  it('every admin operation answers, in its main states, what its schema describes', async () => {
    // A database file gives the emulator a data directory, where POST /export may write.
    const dir = mkdtempSync(join(tmpdir(), 'emulator-openapi-admin-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const emu = await testEmulator({ db: join(dir, 'state.sqlite') })
    const { doc, admin } = await documentOf(emu)
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    addFormats(ajv)
    ajv.addSchema({ ...doc, $id: 'ours' })
    const checked = new Set<string>()

    const call = async (operationId: string, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const op = admin.find((o) => o.operationId === operationId)
      expect(op, operationId).toBeDefined()
      const res = await emu.request({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      })
      const status = String(res.status)
      const declared = op!.responses[status] ? status : `${status[0]}XX`
      expect(op!.responses[declared], `${operationId} answered ${status}`).toBeDefined()
      const validate = ajv.getSchema(`ours#/${pointer('paths', op!.path, op!.method, 'responses', declared, 'content', 'application/json', 'schema')}`)!
      expect(validate(res.body), `${operationId} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true)
      if (res.status < 300) checked.add(operationId)
      return res.body
    }
    const auth = { authorization: `Bearer ${emu.keys.standard}` }

    await call('admin.health', 'GET', `${ADMIN}/health`)
    await call('admin.stats', 'GET', `${ADMIN}/stats`)
    await call('admin.state', 'GET', `${ADMIN}/state`)
    await call('admin.rateLimits.get', 'GET', `${ADMIN}/rate-limits`)
    await call('admin.rateLimits.set', 'PUT', `${ADMIN}/rate-limits`, { keyPerMinute: 1000 })
    await call('admin.accounts.list', 'GET', `${ADMIN}/accounts`)
    const account = (await call('admin.accounts.create', 'POST', `${ADMIN}/accounts`, { name: 'schemas', credits_usd: 25 })).data
    await call('admin.accounts.get', 'GET', `${ADMIN}/accounts/${account.id}`)
    await call('admin.accounts.get', 'GET', `${ADMIN}/accounts/nope`)
    await call('admin.accounts.update', 'PATCH', `${ADMIN}/accounts/${account.id}`, { ignored_providers: ['OpenAI'], zdr_only: true })
    await call('admin.accounts.credits', 'PUT', `${ADMIN}/accounts/${account.id}/credits`, { balance_usd: 3 })
    const key = (
      await call('admin.keys.create', 'POST', `${ADMIN}/accounts/${account.id}/keys`, { limit: 5, limit_reset: 'weekly', expires_at: '2027-01-01T00:00:00Z' })
    ).data
    await call('admin.keys.list', 'GET', `${ADMIN}/accounts/${account.id}/keys`)
    await call('admin.keys.revoke', 'DELETE', `${ADMIN}/accounts/${account.id}/keys/${key.hash}`)
    await call('admin.accounts.activity', 'GET', `${ADMIN}/accounts/${account.id}/activity`)
    await call('admin.accounts.guardrails', 'GET', `${ADMIN}/accounts/${account.id}/guardrails`)
    await call('admin.files.create', 'POST', `${ADMIN}/accounts/${account.id}/files`, { filename: 'out.bin', content_base64: 'AAEC' })
    await call('admin.files.create', 'POST', `${ADMIN}/accounts/${account.id}/files`, { filename: 'out.bin', content_base64: '!' })
    await call('admin.generations.feedback.list', 'GET', `${ADMIN}/accounts/${account.id}/generation-feedback`)
    await call('admin.accounts.workspaces', 'GET', `${ADMIN}/accounts/${account.id}/workspaces`)
    await call('admin.accounts.presets', 'GET', `${ADMIN}/accounts/${account.id}/presets`)
    await call('admin.accounts.byok', 'GET', `${ADMIN}/accounts/${account.id}/byok`)
    await call('admin.accounts.observability', 'GET', `${ADMIN}/accounts/${account.id}/observability/destinations`)
    await call('admin.oauth.authorize', 'POST', `${ADMIN}/oauth/authorize`, { callback_url: 'https://app.example/cb', account_id: account.id })
    await call('admin.oauth.authorize', 'POST', `${ADMIN}/oauth/authorize`, { callback_url: 'http://app.example/cb' })
    await call('admin.accounts.reset', 'POST', `${ADMIN}/accounts/${account.id}/reset`)
    await call('admin.accounts.delete', 'DELETE', `${ADMIN}/accounts/${account.id}`)
    await call('admin.clock.get', 'GET', `${ADMIN}/clock`)
    await call('admin.clock.advance', 'POST', `${ADMIN}/clock/advance`, { by: '1h' })
    await call('admin.clock.advance', 'POST', `${ADMIN}/clock/advance`, {})
    await call('admin.clock.set', 'POST', `${ADMIN}/clock/set`, { to: '2026-03-04T12:00:00Z' })
    await call('admin.clock.resume', 'POST', `${ADMIN}/clock/resume`)
    await call('admin.clock.freeze', 'POST', `${ADMIN}/clock/freeze`)

    const catalog = (await call('admin.catalog.get', 'GET', `${ADMIN}/catalog`)).data
    const model = { ...structuredClone(catalog.models[0]), id: 'acme/extra', canonical_slug: 'acme/extra-1', x_note: { kept: true } }
    model.endpoints = model.endpoints.map((e: Json, i: number) => ({ ...e, id: `acme-extra-${i}` }))
    await call('admin.catalog.extend', 'POST', `${ADMIN}/catalog/models`, { models: [model] })
    // A field the catalog schema does not name survives the serializer.
    const extended = (await call('admin.catalog.get', 'GET', `${ADMIN}/catalog`)).data
    expect(extended.models.find((m: Json) => m.id === 'acme/extra').x_note).toEqual({ kept: true })
    await call('admin.catalog.remove', 'DELETE', `${ADMIN}/catalog/models/acme/extra`)
    await call('admin.catalog.replace', 'PUT', `${ADMIN}/catalog`, { version: 1, models: catalog.models.slice(0, 2) })
    await call('admin.catalog.restore', 'POST', `${ADMIN}/catalog/restore`)

    const charge = async () =>
      (
        await emu.send(
          'POST',
          '/api/v1/credits/crypto',
          { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 },
          emu.keys.standard,
        )
      ).body.data
    const [c1, c2] = [await charge(), await charge()]
    await call('admin.charges.list', 'GET', `${ADMIN}/charges`)
    await call('admin.charges.get', 'GET', `${ADMIN}/charges/${c1.id}`)
    await call('admin.charges.confirm', 'POST', `${ADMIN}/charges/${c1.id}/confirm`)
    await call('admin.charges.expire', 'POST', `${ADMIN}/charges/${c2.id}/expire`)
    await call('admin.charges.confirm', 'POST', `${ADMIN}/charges/${c2.id}/confirm`)

    const video = (operation: string, body: Json) =>
      emu.request({
        method: 'POST',
        url: `/router/v1/video/ent/v2/${operation}`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
    const image = dataUri(png(64, 36), 'image/png')
    // Nothing listens on port 9: each attempt fails, and is recorded.
    const t1 = (await video('text2video', { model: 'videoq2', prompt: 'a fox', callback_url: 'http://127.0.0.1:9/hook' })).body.task_id
    const t2 = (await video('template2video', { template: 'hug', images: [image], prompt: 'hug', seed: '42' })).body.task_id
    const t3 = (await video('text2video', { model: 'videoq2', prompt: 'a cat' })).body.task_id
    await call('admin.video.tasks.advance', 'POST', `${ADMIN}/video/tasks/${t1}/advance`)
    await call('admin.video.tasks.succeed', 'POST', `${ADMIN}/video/tasks/${t2}/succeed`)
    await call('admin.video.tasks.succeed', 'POST', `${ADMIN}/video/tasks/${t2}/succeed`)
    await call('admin.video.tasks.outcome', 'POST', `${ADMIN}/video/tasks/${t3}/outcome`, { outcome: 'stuck' })
    await call('admin.video.tasks.fail', 'POST', `${ADMIN}/video/tasks/${t3}/fail`, { err_code: 'ErrCustom' })
    await call('admin.video.tasks.get', 'GET', `${ADMIN}/video/tasks/${t2}`)
    await call('admin.video.tasks.list', 'GET', `${ADMIN}/video/tasks`)
    await call('admin.video.settings.get', 'GET', `${ADMIN}/video/settings`)
    await call('admin.video.settings.set', 'PUT', `${ADMIN}/video/settings`, { model_failure_rates: { videoq2: 0.1 } })
    await emu.clock.advance('1h')
    await call('admin.callbacks.drain', 'POST', `${ADMIN}/callbacks/drain`, { timeout_ms: 10_000 })
    const deliveries = (await call('admin.callbacks.list', 'GET', `${ADMIN}/callbacks`)).data
    expect(deliveries.length).toBeGreaterThan(0)
    await call('admin.callbacks.get', 'GET', `${ADMIN}/callbacks/${deliveries[0].id}`)
    await call('admin.callbacks.redeliver', 'POST', `${ADMIN}/callbacks/${deliveries[0].id}/redeliver`)

    const rule = (await call('admin.faults.create', 'POST', `${ADMIN}/faults`, { match: { operation: 'credits.get' }, action: { status: 429 }, remaining: 1 }))
      .data
    await call('admin.faults.presets', 'GET', `${ADMIN}/faults/presets`)
    const slow = (await call('admin.faults.preset', 'POST', `${ADMIN}/faults/presets/slow`, { match: { operation: 'models.count' } })).data
    await emu.get('/api/v1/credits', emu.keys.standard)
    await call('admin.faults.get', 'GET', `${ADMIN}/faults/${rule.id}`)
    await call('admin.faults.update', 'PATCH', `${ADMIN}/faults/${rule.id}`, { name: null, remaining: null, expires_at: '2027-01-01T00:00:00Z' })
    await call('admin.faults.disable', 'POST', `${ADMIN}/faults/${slow.id}/disable`)
    await call('admin.faults.enable', 'POST', `${ADMIN}/faults/${slow.id}/enable`)
    await call('admin.faults.list', 'GET', `${ADMIN}/faults`)
    await call('admin.faults.delete', 'DELETE', `${ADMIN}/faults/${slow.id}`)
    await call('admin.faults.clear', 'DELETE', `${ADMIN}/faults`)

    await call('admin.chat.settings.get', 'GET', `${ADMIN}/chat/settings`)
    await call('admin.chat.settings.set', 'PUT', `${ADMIN}/chat/settings`, { model_answer_tokens: { 'openai/gpt-4o-mini': 90 }, speed: 0.5 })
    const owner = (await call('admin.accounts.create', 'POST', `${ADMIN}/accounts`, { name: 'fixtures' })).data
    const fixture = (
      await call('admin.chatFixtures.create', 'POST', `${ADMIN}/accounts/${owner.id}/chat-fixtures`, {
        match: { last_user: 'hi' },
        answer: { tool_calls: [{ name: 'greet', arguments: { to: 'you' } }] },
        times: 2,
      })
    ).data
    await call('admin.chatFixtures.create', 'POST', `${ADMIN}/accounts/${owner.id}/chat-fixtures`, { answer: { error: { status: 503 } }, position: 0 })
    await call('admin.chatFixtures.test', 'POST', `${ADMIN}/accounts/${owner.id}/chat-fixtures/test`, { model: 'openai/gpt-4o-mini', prompt: 'hi' })
    await call('admin.chatFixtures.get', 'GET', `${ADMIN}/chat-fixtures/${fixture.id}`)
    await call('admin.chatFixtures.update', 'PATCH', `${ADMIN}/chat-fixtures/${fixture.id}`, { name: 'greet', enabled: false, times: null, position: 0 })
    await call('admin.chatFixtures.list', 'GET', `${ADMIN}/accounts/${owner.id}/chat-fixtures`)
    await call('admin.chatFixtures.delete', 'DELETE', `${ADMIN}/chat-fixtures/${fixture.id}`)
    await call('admin.chatFixtures.clear', 'DELETE', `${ADMIN}/accounts/${owner.id}/chat-fixtures`)
    await call('admin.recordings.list', 'GET', `${ADMIN}/recordings`)
    await call('admin.recordings.reload', 'POST', `${ADMIN}/recordings/reload`)

    // An answer that carried a file (speech), so the journal has one to serve.
    expect(
      (await emu.send('POST', '/api/v1/audio/speech', { model: 'openai/gpt-4o-mini-tts', input: 'Hello', response_format: 'mp3' }, emu.keys.standard)).status,
    ).toBe(200)
    const entries = (await call('admin.journal.list', 'GET', `${ADMIN}/journal?limit=100`)).data
    const spoken = entries.find((e: Json) => e.operation === 'audio.speech')
    const file = await emu.app.inject({ method: 'GET', url: `${ADMIN}/journal/${spoken.id}/media/0` })
    expect([file.statusCode, file.headers['content-type']]).toEqual([200, 'audio/mpeg'])
    checked.add('admin.journal.media')
    await call('admin.journal.media', 'GET', `${ADMIN}/journal/${spoken.id}/media/1`)
    expect(entries.some((e: Json) => e.fault !== null && e.request.body === null)).toBe(true)
    await call('admin.journal.get', 'GET', `${ADMIN}/journal/${entries.at(-1).id}`)
    await call('admin.journal.get', 'GET', `${ADMIN}/journal/999999`)
    const har = await call('admin.journal.har', 'GET', `${ADMIN}/journal/har`)
    // Every entry, with what HAR has no field for.
    expect(har.log.entries).toHaveLength(entries.length)
    expect(har.log.entries.at(-1)._emulator.effects).toEqual(entries[0].effects)

    const state = await call('admin.state.export', 'GET', `${ADMIN}/export`)
    await call('admin.state.exportFile', 'POST', `${ADMIN}/export`, { path: 'state.json' })
    await call('admin.state.import', 'POST', `${ADMIN}/import`, state)
    await call('admin.journal.clear', 'DELETE', `${ADMIN}/journal`)
    await call('admin.fixtures.seed', 'POST', `${ADMIN}/fixtures/seed`, { preset: 'empty' })
    await call('admin.reset', 'POST', `${ADMIN}/reset`)
    await call('admin.openapi', 'GET', `${ADMIN}/openapi.json`)

    // The event stream never ends, so it is exercised by the journal's own tests, not here.
    const unchecked = admin.map((o) => o.operationId).filter((id) => !checked.has(id) && id !== 'admin.events')
    expect(unchecked).toEqual([])
  })
})
