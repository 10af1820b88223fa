// The video router in the OpenAPI document: every operation's answers and the create operations'
// bodies come from the routes' own schemas, and what the routes serve fits them.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ROUTER = '/router/v1/video/ent/v2'
const IMG = 'https://example.com/frame.png'

type Operation = {
  operationId: string
  requestBody?: { required: boolean; content: Record<string, { schema: any }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: any }> }>
}

async function documentOf(emu: TestEmulator) {
  const doc = (await emu.get('/_emulator/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>>; components: any }
  const operations = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/router/'))
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, ...op })))
  return { doc, operations, op: (id: string) => operations.find((o) => o.operationId === id)! }
}

const CREATES = ['multiframe', 'text2video', 'img2video', 'reference2video', 'startend2video', 'template2video'].map((o) => `video.${o}`)

describe('the video router in the OpenAPI document', () => {
  it('declares a 2xx answer with a schema, or its media types, and the vendor error envelope for every operation', async () => {
    const { operations } = await documentOf(await testEmulator())
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [...CREATES, 'video.tasks.get', 'video.tasks.cancel', 'video.tasks.list', 'video.templates', 'video.media'].sort(),
    )
    for (const o of operations) {
      const success = Object.entries(o.responses).filter(([status]) => /^2\d\d$/.test(status))
      expect(success.length, o.operationId).toBeGreaterThan(0)
      for (const [status, response] of success) {
        const media = Object.entries(response.content ?? {})
        expect(media.length, `${o.operationId} ${status}`).toBeGreaterThan(0)
        for (const [type, { schema }] of media) {
          if (type === 'application/json') expect(schema.type, `${o.operationId} ${status}`).toBe('object')
          else expect(schema, `${o.operationId} ${status} ${type}`).toEqual({ type: 'string', format: 'binary' })
        }
      }
      expect(o.responses['4XX']!.content!['application/json']!.schema, o.operationId).toEqual({ $ref: '#/components/schemas/RouterError' })
    }
    const media = operations.find((o) => o.operationId === 'video.media')!
    expect(Object.keys(media.responses['200']!.content!)).toEqual(['video/mp4', 'image/jpeg'])
    expect(media.responses['206']).toBeDefined()
  })

  it('documents each create body: its required fields, the operation’s models, the limits', async () => {
    const { op } = await documentOf(await testEmulator())
    for (const id of CREATES) expect(op(id).requestBody?.required, id).toBe(true)
    const body = (id: string) => op(id).requestBody!.content['application/json']!.schema

    const text = body('video.text2video')
    expect(text.required).toEqual(['model', 'prompt'])
    expect(text.properties.model.enum).toEqual(['videoq2', 'videoq1', 'video1.5', 'videoq3-pro', 'videoq3-turbo'])
    expect(text.properties.prompt).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 })
    // '' and null ask for the default.
    expect(text.properties.style).toMatchObject({ type: ['string', 'null'], enum: ['general', 'anime', '', null] })
    expect(text.properties.seed.type).toEqual(['integer', 'string', 'null'])

    expect(body('video.img2video').properties.images).toMatchObject({ type: 'array', minItems: 1, maxItems: 1 })
    expect(body('video.startend2video').properties.images).toMatchObject({ minItems: 2, maxItems: 2 })
    expect(body('video.reference2video').required).toEqual(['model', 'images', 'prompt'])
    expect(body('video.template2video').required).toEqual(['template', 'images', 'prompt', 'seed'])
    const frames = body('video.multiframe').properties.image_settings
    expect(frames.items).toMatchObject({ required: ['key_image'], properties: { duration: { minimum: 2, maximum: 7 } } })
    expect(frames).toMatchObject({ minItems: 0, maxItems: 9 })
  })

  it('shows the key frames a multiframe task needs under --multiframe-min-key-frames', async () => {
    const { op } = await documentOf(await testEmulator({ multiframeMinKeyFrames: 2 }))
    const frames = op('video.multiframe').requestBody!.content['application/json']!.schema.properties.image_settings
    expect(frames).toMatchObject({ minItems: 2, maxItems: 9, description: expect.stringMatching(/^Required: 2 to 9/) })
  })

  it('spot-checks the answers: the create fields per operation, a task and its creations, the list', async () => {
    const { op } = await documentOf(await testEmulator())
    const ok = (id: string) => op(id).responses['200']!.content!['application/json']!.schema
    expect(Object.keys(ok('video.reference2video').properties)).toEqual(['task_id', 'state', 'type', 'model'])
    expect(ok('video.template2video').required).toEqual(['task_id', 'state', 'template', 'resolution', 'duration'])
    const task = ok('video.tasks.get')
    expect(task.required).not.toContain('type')
    expect(task.required).not.toContain('model')
    expect(task.properties.creations.items.properties.video.properties.resolution.required).toEqual(['width', 'height'])
    const listed = ok('video.tasks.list').properties.tasks.items
    expect(listed.properties.prompt.type).toEqual(['string', 'null'])
    expect(listed.required).not.toContain('template')
    expect(ok('video.tasks.cancel')).toMatchObject({ type: 'object', additionalProperties: false })
  })

  it('serves answers that fit the document, and lists every field the task query answers', async () => {
    const emu = await testEmulator()
    const { doc } = await documentOf(emu)
    const ajv = new Ajv2020({ strict: false })
    ajv.addSchema(doc, 'doc')
    const fits = (path: string, method: string, status: string, body: unknown) => {
      const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']
        .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/')
      const validate = ajv.getSchema(`doc#/${pointer}`)!
      expect(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    const post = (operation: string, body: unknown) =>
      emu.request({
        method: 'POST',
        url: `${ROUTER}/${operation}`,
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
    const bodies: Record<string, unknown> = {
      multiframe: { model: 'videoq2-pro', start_image: IMG },
      text2video: { model: 'videoq2', prompt: 'x' },
      img2video: { model: 'videoq2-pro', images: [IMG] },
      reference2video: { model: 'videoq2', images: [IMG], prompt: 'x' },
      'start-end2video': { model: 'videoq2-pro', images: [IMG, IMG] },
      template2video: { template: 'hug', images: [IMG], prompt: 'x', seed: 1 },
    }
    const ids: string[] = []
    for (const [operation, body] of Object.entries(bodies)) {
      const res = await post(operation, body)
      fits(`${ROUTER}/${operation}`, 'post', '200', res.body)
      ids.push(res.body.task_id)
    }
    const refused = await post('text2video', { model: 'videoq2' })
    fits(`${ROUTER}/text2video`, 'post', '4XX', refused.body)
    fits(`${ROUTER}/tasks/{id}/cancel`, 'post', '200', (await emu.send('POST', `${ROUTER}/tasks/${ids[1]}/cancel`, {}, emu.keys.standard)).body)
    await emu.clock.advance('1m')
    const queried = []
    for (const id of ids) {
      const res = await emu.get(`${ROUTER}/tasks/${id}/creations`, emu.keys.standard)
      fits(`${ROUTER}/tasks/{id}/creations`, 'get', '200', res.body)
      queried.push(res.body)
    }
    const list = (await emu.get(`${ROUTER}/tasks`, emu.keys.standard)).body
    fits(`${ROUTER}/tasks`, 'get', '200', list)
    // A listed task is the queried task with its request's fields: nothing of the query is left out.
    expect(list.tasks.toReversed()).toEqual(queried.map((task) => expect.objectContaining(task)))
    fits('/router/v1/video/templates', 'get', '200', (await emu.get('/router/v1/video/templates')).body)
  })
})
