// Finding a recording (recordings-replay.service.ts): by the whole request or by loosened conditions, in name
// order, with `times` counted per use; raw recordings answer their own operation only; the model a
// recording is billed through; and the folder's bounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import catalogDocument from '../../../fixtures/catalog/catalog.json' with { type: 'json' }
import type { CatalogModel } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { chatAsk } from '../../../src/emulator/modules/chat/chat.service.ts'
import type { ChatBody } from '../../../src/emulator/modules/chat/chat.schemas.ts'
import { RECORDING_FORMAT } from '../../../src/emulator/modules/recordings/recordings-format.service.ts'
import {
  checkRecording,
  loadFolder,
  MAX_FILE_BYTES,
  MAX_FILES,
  RecordingSet,
  servingModel,
  type Recording,
} from '../../../src/emulator/modules/recordings/recordings-replay.service.ts'

const MODEL = 'openai/gpt-4o-mini'
const TEXT = {
  choices: [{ content: 'Hello.', finish_reason: 'stop' }],
  model: MODEL,
  provider: 'OpenAI',
  usage: { prompt_tokens: 5, completion_tokens: 2, cost: 0.001 },
}

/** A loaded recording from a file's body (checked as the folder's are). */
function recording(file: string, body: Record<string, unknown>): Recording {
  const checked = checkRecording({ format: RECORDING_FORMAT, operation: 'chat.create', ...body })
  if ('field' in checked) throw new Error(`${file}: ${checked.field} ${checked.issue}`)
  return { file, operation: checked.body.operation, body: checked.body, key: checked.key, digest: file, uses: 0 }
}

const ask = (body: Record<string, unknown>) => chatAsk({ model: MODEL, ...body } as ChatBody)
const said = (text: string) => ask({ messages: [{ role: 'user', content: text }] })

describe('RecordingSet', () => {
  it('matches the whole request, keys in any order, and by name order first', () => {
    const set = new RecordingSet()
    set.replace([
      recording('a.json', { request: { messages: [{ content: 'Hi', role: 'user' }], model: MODEL }, text: TEXT }),
      recording('b.json', { request: { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }, text: TEXT }),
    ])
    expect(set.findText(said('Hi'), null)?.file).toBe('a.json')
    expect(set.findText(said('Hi there'), null)).toBeNull()
    expect(set.findText(ask({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }), null)).toBeNull()
  })

  it('counts `times` per use; a used-up file is passed over, and a reset gives the uses back', () => {
    const set = new RecordingSet()
    set.replace([recording('1.json', { match: { last_user: 'hi' }, times: 2, text: TEXT }), recording('2.json', { match: { last_user: 'hi' }, text: TEXT })])
    const first = set.findText(said('hi'), null)!
    expect(set.usable(first.file)).toBe(true)
    set.use(first.file)
    set.use(first.file)
    expect(set.usable('1.json')).toBe(false)
    expect(set.findText(said('hi'), null)?.file).toBe('2.json')
    expect(set.list()[0]).toEqual({ file: '1.json', operation: 'chat.create', model: MODEL, times: 2, remaining: 0, uses: 2, loosened: true })
    set.restoreUses()
    expect(set.findText(said('hi'), null)?.file).toBe('1.json')
  })

  it('matches loosened conditions as chat fixtures do, plus tool_result', () => {
    const set = new RecordingSet()
    set.replace([
      recording('call.json', { match: { model: 'openai/*', last_user_regex: '^weather in \\w+$', tool_result: false }, text: TEXT }),
      recording('result.json', { match: { tool_result: true, system: 'forecaster' }, text: TEXT }),
      recording('header.json', { match: { header: 'case-7' }, text: TEXT }),
    ])
    expect(set.findText(said('Weather in Oslo'), null)?.file).toBe('call.json')
    expect(set.findText(ask({ model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user', content: 'weather in Oslo' }] }), null)).toBeNull()
    const afterTool = ask({
      messages: [
        { role: 'system', content: 'You are a forecaster.' },
        { role: 'user', content: 'weather in Oslo' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sun' },
      ],
    })
    expect(set.findText(afterTool, null)?.file).toBe('result.json')
    expect(set.findText(said('anything'), 'case-7')?.file).toBe('header.json')
    expect(set.findText(said('anything'), 'case-8')).toBeNull()
  })

  it('answers a raw operation with its own recordings only, by the body without routing fields', () => {
    const set = new RecordingSet()
    const raw = { status: 200, content_type: 'application/json', json: { data: [] }, model: 'openai/text-embedding-3-small', provider: null, cost: 0 }
    set.replace([
      recording('emb.json', { operation: 'embeddings.create', request: { model: 'openai/text-embedding-3-small', input: 'x' }, raw }),
      recording('any-emb.json', { operation: 'embeddings.create', match: { model: '*-3-large' }, raw }),
      recording('chat.json', { request: { model: MODEL, messages: [{ role: 'user', content: 'x' }] }, text: TEXT }),
    ])
    expect(
      set.findRaw('embeddings.create', { input: 'x', model: 'openai/text-embedding-3-small', user: 'u', provider: { only: ['OpenAI'] } }, null)?.file,
    ).toBe('emb.json')
    expect(set.findRaw('embeddings.create', { input: 'y', model: 'openai/text-embedding-3-large' }, null)?.file).toBe('any-emb.json')
    expect(set.findRaw('images.create', { input: 'x', model: 'openai/text-embedding-3-small' }, null)).toBeNull()
    expect(set.answersModel(MODEL)).toBe(true)
    expect(set.answersModel('openai/text-embedding-3-small')).toBe(false)
  })
})

describe('servingModel', () => {
  const models = (catalogDocument as { models: CatalogModel[] }).models
  const find = (id: string) => models.find((m) => m.id === id)

  it('bills a recorded model the catalog has through its endpoints of the recorded provider', () => {
    const served = servingModel(find, 'chat.create', { model: MODEL, provider: 'OpenAI' }, MODEL)
    expect(served.model.id).toBe(MODEL)
    expect(served.endpoints.map((e) => e.provider_name)).toEqual(['OpenAI'])
    // A provider the catalog does not list for it: any of its endpoints.
    expect(servingModel(find, 'chat.create', { model: MODEL, provider: 'Elsewhere' }, MODEL).endpoints).toEqual(find(MODEL)!.endpoints)
  })

  it('makes a stand-in for a model the catalog lacks, named by the recorded provider, priced at nothing', () => {
    const served = servingModel(find, 'audio.speech', { model: 'acme/voice-2', provider: 'Acme Cloud' }, 'acme/voice-2')
    expect(served.model).toMatchObject({ id: 'acme/voice-2', architecture: { output_modalities: ['speech'] } })
    expect(served.endpoints).toEqual([
      expect.objectContaining({
        id: 'recorded-acme-cloud-acme-voice-2',
        provider: 'acme-cloud',
        provider_name: 'Acme Cloud',
        pricing: { prompt: '0', completion: '0' },
        regions: ['us'],
        zdr: false,
      }),
    ])
  })
})

describe('the folder’s bounds', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it(`loads at most ${MAX_FILES} files`, () => {
    dir = mkdtempSync(join(tmpdir(), 'replay-bounds-'))
    for (let i = 0; i <= MAX_FILES; i++) writeFileSync(join(dir, `${i}.json`), '{}')
    expect(loadFolder(dir).problems).toEqual([{ file: dir, field: '', issue: `holds more than ${MAX_FILES} .json files (the most --replay loads)` }])
  })

  it('loads at most 64 MiB in all', () => {
    dir = mkdtempSync(join(tmpdir(), 'replay-bounds-'))
    const big = `{"pad":"${'x'.repeat(MAX_FILE_BYTES - 20)}"}`
    for (let i = 0; i < 10; i++) writeFileSync(join(dir, `${i}.json`), big)
    expect(loadFolder(dir).problems.at(-1)).toEqual({
      file: dir,
      field: '',
      issue: `holds more than ${64 * 1024 * 1024} bytes of recordings (the most --replay loads)`,
    })
  })
})
