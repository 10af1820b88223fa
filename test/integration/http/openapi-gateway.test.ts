// The gateway's answers in the OpenAPI document (keys, models, guardrails, embeddings, activity, credits):
// every operation documents its success body, and the bodies the emulator sends as prepared bytes
// (the catalog's, embeddings') are described field for field by their documented schema.
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

type Json = Record<string, any>
type Operation = { operationId: string; responses: Record<string, Json> }

const AREA = /^\/api\/v1\/(keys?|models?|endpoints|providers|guardrails|embeddings|activity|credits)(\/|$)/

async function documentOf(emu: TestEmulator) {
  const doc = (await emu.get('/_emulator/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> }
  const operations = Object.entries(doc.paths)
    .filter(([path]) => AREA.test(path))
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, ...op })))
  const op = (id: string) => operations.find((o) => o.operationId === id)!
  return { operations, op }
}

/** The success response of an operation: its status and its body schema for `media`. */
function success(o: Operation, media = 'application/json'): { status: string; schema: Json } {
  const [status, response] = Object.entries(o.responses).find(([code]) => code.startsWith('2'))!
  return { status, schema: response.content[media].schema }
}

/**
 * The value `body` becomes when Fastify serialises it with `schema` (fast-json-stringify): a field the
 * schema does not describe is dropped, a mistyped one coerced or refused, so equality with the served
 * body proves the schema describes all of it.
 */
async function throughSchema(schema: Json, body: unknown): Promise<unknown> {
  const app = Fastify({ bodyLimit: 64 * 1024 * 1024 })
  app.post('/', { schema: { response: { 200: schema } } }, async (request) => request.body)
  try {
    const res = await app.inject({ method: 'POST', url: '/', payload: body as object })
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200)
    return res.json()
  } finally {
    await app.close()
  }
}

describe('OpenAPI document: the gateway’s answers', () => {
  it('documents a success body for every operation of keys, models, guardrails, embeddings, activity and credits', async () => {
    const emu = await testEmulator()
    const { operations } = await documentOf(emu)
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [
        'activity.list',
        'credits.coinbase',
        'credits.crypto',
        'credits.get',
        'embeddings.create',
        'embeddings.models',
        'endpoints.zdr',
        'guardrails.assignments.keys.assign',
        'guardrails.assignments.keys.list',
        'guardrails.assignments.keys.listAll',
        'guardrails.assignments.keys.unassign',
        'guardrails.assignments.members.assign',
        'guardrails.assignments.members.list',
        'guardrails.assignments.members.listAll',
        'guardrails.assignments.members.unassign',
        'guardrails.create',
        'guardrails.delete',
        'guardrails.get',
        'guardrails.list',
        'guardrails.update',
        'keys.create',
        'keys.current',
        'keys.delete',
        'keys.get',
        'keys.list',
        'keys.update',
        'models.count',
        'models.endpoints',
        'models.get',
        'models.list',
        'models.user',
        'providers.list',
      ].sort(),
    )
    for (const o of operations) {
      const codes = Object.keys(o.responses).filter((code) => code.startsWith('2'))
      expect(codes, o.operationId).toEqual([o.operationId === 'guardrails.create' || o.operationId === 'keys.create' ? '201' : '200'])
      const { schema } = success(o)
      expect(schema.type, o.operationId).toBe('object')
      expect(Object.keys(schema.properties ?? {}).length, o.operationId).toBeGreaterThan(0)
      expect(o.responses['4XX']!.content['application/json'].schema, o.operationId).toEqual({ $ref: '#/components/schemas/Error' })
    }
  })

  it('spells out the current key, catalog, guardrail and embedding shapes', async () => {
    const emu = await testEmulator()
    const { op } = await documentOf(emu)

    // The public list: cacheable, JSON or an RSS feed.
    const list = op('models.list').responses['200']!
    expect(list.headers['cache-control'].schema).toEqual({ type: 'string' })
    expect(Object.keys(list.content)).toEqual(['application/json', 'application/rss+xml'])
    const model = list.content['application/json'].schema.properties.data.items
    expect(model.properties.pricing.properties.prompt).toMatchObject({ type: 'string' })
    expect(model.properties.pricing.required).toEqual(['prompt', 'completion'])
    expect(model.properties.top_provider.properties.max_completion_tokens.type).toEqual(['integer', 'null'])
    expect(model.properties.default_parameters.type).toEqual(['object', 'null'])
    expect(model.properties.per_request_limits.type).toEqual(['object', 'null'])
    expect(model.required).toEqual(expect.arrayContaining(['supported_parameters', 'default_parameters', 'links']))

    // The calling key: not cacheable, with every field the current client requires beyond the real document's.
    const currentKey = op('keys.current').responses['200']!
    expect(currentKey.headers['cache-control'].schema).toEqual({ type: 'string' })
    expect(currentKey.content['application/json'].schema.properties.data.required).toEqual(
      expect.arrayContaining([
        'label',
        'limit_remaining',
        'rate_limit',
        'allowed_data_regions',
        'free_model_daily_requests',
        'organization_id',
        'workspace_id',
      ]),
    )

    // The ZDR preview's prices carry the numeric discount.
    const zdr = success(op('endpoints.zdr')).schema.properties.data.items
    expect(zdr.properties.pricing.properties.discount.type).toBe('number')

    // A guardrail echoes the fields a client sent beyond its own.
    const guardrail = success(op('guardrails.create')).schema.properties.data
    expect(guardrail.additionalProperties).toBe(true)
    expect(guardrail.required).not.toContain('ignored_models')
    expect(success(op('guardrails.assignments.keys.assign')).schema.properties.assigned_count.type).toBe('integer')

    // An embedding is numbers or, with encoding_format base64, a string.
    const embedding = success(op('embeddings.create')).schema.properties.data.items.properties.embedding
    expect(embedding.anyOf).toEqual([{ type: 'array', items: { type: 'number' } }, { type: 'string' }])
  })

  it('describes every field of the bodies sent as prepared bytes', async () => {
    const emu = await testEmulator()
    const { op } = await documentOf(emu)
    const check = async (id: string, res: { status: number; body: unknown; headers: Record<string, unknown> }) => {
      expect(res.status, id).toBe(200)
      expect(res.headers['content-type'], id).toBe('application/json; charset=utf-8')
      expect(await throughSchema(success(op(id)).schema, res.body), id).toEqual(res.body)
    }

    const all = await emu.get('/api/v1/models?output_modalities=all')
    expect(all.headers['cache-control']).toBe('public, max-age=120, stale-while-revalidate=3600, stale-if-error=3600')
    await check('models.list', all)
    await check('models.list', await emu.get('/api/v1/models?limit=2&offset=1'))
    await check('models.user', await emu.get('/api/v1/models/user?output_modalities=all', emu.keys.standard))
    await check('endpoints.zdr', await emu.get('/api/v1/endpoints/zdr'))
    for (const m of all.body.data as { links: { details: string } }[]) await check('models.endpoints', await emu.get(m.links.details))

    const embed = (body: Json) =>
      emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: ['one', 'two'], ...body }, emu.keys.standard)
    await check('embeddings.create', await embed({}))
    await check('embeddings.create', await embed({ encoding_format: 'base64', dimensions: 256 }))
  })

  it('documents each inference surface: its success answer, its media types, and its error envelope', async () => {
    const emu = await testEmulator()
    const doc = (await emu.get('/_emulator/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> }
    const surfaces = Object.entries(doc.paths)
      .filter(([path]) => /^\/api\/v1\/(responses|messages|images|audio|rerank|videos)(\/|$)/.test(path))
      .flatMap(([, methods]) => Object.values(methods))
    const answers = Object.fromEntries(
      surfaces.map((o) => {
        const [status, response] = Object.entries(o.responses).find(([code]) => code.startsWith('2'))!
        return [o.operationId, `${status} ${Object.keys(response.content as Json).join(' ')}`]
      }),
    )
    expect(answers).toEqual({
      'responses.create': '200 application/json text/event-stream',
      'messages.create': '200 application/json text/event-stream',
      'images.create': '200 application/json',
      'images.generations': '200 application/json',
      'images.models': '200 application/json',
      'images.models.endpoints': '200 application/json',
      'audio.speech': '200 audio/pcm audio/mpeg audio/wav',
      'audio.transcriptions': '200 application/json',
      'rerank.create': '200 application/json',
      'videos.create': '202 application/json',
      'videos.get': '200 application/json',
      'videos.content': '200 video/mp4',
      'videos.models': '200 application/json',
    })
    for (const o of surfaces) {
      const envelope = (o.responses['4XX'] ?? o.responses.default)!.content['application/json'].schema
      // The Messages API answers every error in Anthropic's envelope; the rest in the gateway's.
      if (o.operationId === 'messages.create') {
        expect(envelope.required, o.operationId).toEqual(['type', 'error', 'request_id'])
        expect(o.responses.default!.content['application/json'].schema).toEqual(envelope)
      } else expect(envelope, o.operationId).toEqual({ $ref: '#/components/schemas/Error' })
    }
  })

  it('documents the charge paths as 410 when crypto charges are gone', async () => {
    const emu = await testEmulator({ cryptoCharges: 'gone' })
    const { op } = await documentOf(emu)
    for (const id of ['credits.crypto', 'credits.coinbase']) {
      expect(Object.keys(op(id).responses), id).toEqual(['410', 'default'])
      expect(op(id).responses['410']!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
      expect((await emu.send('POST', `/api/v1/credits/${id.split('.')[1]}`, {})).status).toBe(410)
    }
  })
})
