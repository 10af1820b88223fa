// The --replay folder: a malformed file refuses the start (naming the file and the field), the folder
// is read again when it changes (a malformed file then keeps the loaded set, with a warning naming
// it), POST /recordings/reload does the same on demand; the official clients get replayed answers
// over real HTTP (the testing helper takes the settings); no key is written anywhere.
import Anthropic, { NotFoundError } from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { startTestEmulator } from '../../../src/emulator/testing.ts'
import { createEmulator } from '../../../src/emulator/index.ts'
import { testEmulator } from '../../helpers/emulator.ts'
import { EMBEDDING, folderWith, MODEL, PARIS, QUESTION, SYSTEM, writeFiles } from './replay-helpers.ts'

const ADMIN = '/_emulator/api'

/** Polls `probe` until it gives a value: the folder's watcher works in the background. */
async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 10_000): Promise<T> {
  const until = performance.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const refusal = async (files: Record<string, unknown>): Promise<{ folder: string; message: string }> => {
  const folder = folderWith(files)
  const error = await createEmulator({ db: ':memory:', logLevel: 'silent', replay: folder }).then(
    () => null,
    (e: unknown) => e as Error,
  )
  expect(error).not.toBeNull()
  return { folder, message: error!.message }
}

describe('a malformed recording refuses the start', () => {
  it('names the file and the field', async () => {
    const broken = { ...PARIS, text: { ...PARIS.text, choices: [{ content: 'Paris.' }] } }
    const { folder, message } = await refusal({ 'chat-1.json': broken })
    expect(message).toBe(`--replay ${folder}: ${folder}/chat-1.json: text.choices[0].finish_reason is required`)
  })

  it.each([
    ['not JSON', '{"format": ', '/bad.json: is not valid JSON'],
    ['another format', { ...PARIS, format: 'other/1' }, '/bad.json: format must be "gateway-emulator.recording/1" (the format this emulator reads)'],
    ['an unknown operation', { ...PARIS, operation: 'chat.delete' }, '/bad.json: operation must be one of chat.create'],
    ['a text operation without text', { ...PARIS, text: undefined }, '/bad.json: text is required: the answer of a text operation (chat.create)'],
    ['no request and no match', { ...PARIS, request: undefined }, '/bad.json: request is required (or a `match` that loosens the match)'],
    [
      'a request that is no normal request',
      { ...PARIS, request: { model: MODEL, messages: [{ role: 'wizard', content: 'hi' }] } },
      '/bad.json: request.messages[0].role',
    ],
    [
      'a regex RE2 refuses',
      { ...PARIS, match: { last_user_regex: '(?=x)' } },
      '/bad.json: match.last_user_regex is not a valid regular expression: RE2 syntax does not support lookahead',
    ],
    [
      'tool-call arguments that are no JSON',
      { ...PARIS, text: { ...PARIS.text, choices: [{ content: null, tool_calls: [{ name: 'f', arguments: '{nope' }], finish_reason: 'tool_calls' }] } },
      '/bad.json: text.choices[0].tool_calls[0].arguments must be JSON text',
    ],
    [
      'an unknown finish reason',
      { ...PARIS, text: { ...PARIS.text, choices: [{ content: 'x', finish_reason: 'done' }] } },
      '/bad.json: text.choices[0].finish_reason must be one of stop, length, tool_calls, content_filter',
    ],
    [
      'raw bytes that are no base64',
      { ...EMBEDDING, raw: { ...EMBEDDING.raw, json: undefined, base64: 'not base64!' } },
      '/bad.json: raw.base64 is not valid base64',
    ],
    [
      'raw with both json and bytes',
      { ...EMBEDDING, raw: { ...EMBEDDING.raw, base64: 'AAAA' } },
      '/bad.json: raw must hold one of `json` (a JSON answer) or `base64` (bytes)',
    ],
    [
      'a content type that is no media type',
      { ...EMBEDDING, raw: { ...EMBEDDING.raw, content_type: 'text/plain\r\nx-evil: 1' } },
      '/bad.json: raw.content_type must be a media type',
    ],
    ['a conversational condition on a raw recording', { ...EMBEDDING, match: { last_user: 'x' } }, '/bad.json: match.last_user is for text operations only'],
  ])('%s', async (_what, body, expected) => {
    const { message } = await refusal({ 'good.json': PARIS, 'bad.json': body })
    expect(message).toContain(expected)
  })

  it('lists every problem, and refuses a folder that does not exist', async () => {
    const { message } = await refusal({ 'a.json': '[', 'b/c.json': { ...PARIS, times: 0 } })
    expect(message).toMatch(/: 2 problems\n {2}.*\/a\.json: is not valid JSON .*\n {2}.*\/b\/c\.json: times must be >= 1$/)
    const missing = await createEmulator({ db: ':memory:', logLevel: 'silent', replay: '/nonexistent/recordings' }).catch((e: Error) => e)
    expect((missing as Error).message).toBe('--replay /nonexistent/recordings: /nonexistent/recordings: does not exist')
  })

  it('refuses a file over its bound without reading it', async () => {
    const { message } = await refusal({ 'huge.json': `{"pad": "${'x'.repeat(7 * 1024 * 1024)}"}` })
    expect(message).toMatch(/huge\.json: is 7340043 bytes, more than the 6920601 a recording may be/)
  })
})

describe('the folder changes', () => {
  it('is read again when a file is added; a malformed one keeps the loaded set and warns, naming it', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS })
    const warnings: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk)
      if (text.includes('--replay')) {
        warnings.push(text)
        return true
      }
      return write(chunk, ...(rest as []))
    })
    onTestFinished(() => spy.mockRestore())
    const emu = await testEmulator({ replay: folder, onMiss: 'error', logLevel: 'warn' })
    const files = async () => ((await emu.get(`${ADMIN}/recordings`)).body.data as Array<{ file: string }>).map((r) => r.file)
    expect(await files()).toEqual(['chat-1.json'])
    const changes: string[] = []
    emu.ctx.events.on('admin.changed', ({ operation }) => changes.push(operation))

    writeFiles(folder, { 'emb.json': EMBEDDING })
    await waitFor(async () => ((await files()).length === 2 ? true : undefined), 'the new file to load')
    // An open inspector hears of it as of a reload through the admin API.
    expect(changes).toContain('admin.recordings.reload')
    expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDING.request, emu.keys.standard)).status).toBe(200)

    writeFiles(folder, { 'zz.json': { ...PARIS, times: -1 } })
    const warning = await waitFor(() => warnings[0], 'the warning')
    expect(warning).toContain(`not reloaded, the 2 recordings loaded before stay in use: ${folder}/zz.json: times must be >= 1`)
    expect(await files()).toEqual(['chat-1.json', 'emb.json'])

    // On demand: the same check, as a 400 naming the file and the field.
    const refused = await emu.send('POST', `${ADMIN}/recordings/reload`)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({
      message: `Cannot reload the recordings: ${folder}/zz.json: times must be >= 1; the 2 loaded before stay in use`,
      metadata: { file: `${folder}/zz.json`, field: 'times' },
    })
    writeFiles(folder, { 'zz.json': { ...PARIS, times: 2 } })
    const reloaded = await emu.send('POST', `${ADMIN}/recordings/reload`)
    expect(reloaded.status).toBe(200)
    expect(reloaded.body).toMatchObject({ total_count: 3, folder, on_miss: 'error', upstream: null })
  })

  it('keeps the uses of a file whose bytes did not change', async () => {
    const folder = folderWith({ 'chat-1.json': { ...PARIS, times: 2 } })
    const emu = await testEmulator({ replay: folder })
    const chat = () =>
      emu.send(
        'POST',
        '/api/v1/chat/completions',
        {
          model: MODEL,
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: QUESTION },
          ],
          max_tokens: 100,
        },
        emu.keys.standard,
      )
    await chat()
    writeFiles(folder, { 'other.json': EMBEDDING })
    const reloaded = (await emu.send('POST', `${ADMIN}/recordings/reload`)).body.data
    expect(reloaded.find((r: { file: string }) => r.file === 'chat-1.json')).toMatchObject({ uses: 1, remaining: 1 })
    writeFiles(folder, { 'chat-1.json': { ...PARIS, times: 3 } })
    const changed = (await emu.send('POST', `${ADMIN}/recordings/reload`)).body.data
    expect(changed.find((r: { file: string }) => r.file === 'chat-1.json')).toMatchObject({ uses: 0, remaining: 3 })
  })
})

describe('the official clients over real HTTP, through the testing helper', () => {
  it('openai (chat, streamed chat, responses) and @anthropic-ai/sdk get the recorded answer; a miss is a NotFoundError', async () => {
    const emu = await startTestEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    onTestFinished(() => emu.close())
    const openai = new OpenAI({ apiKey: emu.keys.standard, baseURL: emu.apiUrl, maxRetries: 0 })
    const messages = [
      { role: 'system' as const, content: SYSTEM },
      { role: 'user' as const, content: QUESTION },
    ]
    const completion = await openai.chat.completions.create({ model: MODEL, messages, max_tokens: 100 })
    expect(completion.choices[0]!.message.content).toBe('Paris.')
    const stream = await openai.chat.completions.create({ model: MODEL, messages, max_tokens: 100, stream: true })
    let streamed = ''
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? ''
    expect(streamed).toBe('Paris.')
    const response = await openai.responses.create({ model: MODEL, instructions: SYSTEM, input: QUESTION, max_output_tokens: 100 })
    expect(response.output_text).toBe('Paris.')

    const anthropic = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const message = await anthropic.messages.create({ model: MODEL, system: SYSTEM, max_tokens: 100, messages: [{ role: 'user', content: QUESTION }] })
    expect(message.content).toEqual([{ type: 'text', text: 'Paris.', citations: null }])
    const missed = await anthropic.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e)
    expect(missed).toBeInstanceOf(NotFoundError)
    await expect(openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 404,
      error: { metadata: { reason: 'no_recording' } },
    })
  })
})

describe('keys', () => {
  it('never shows the upstream key: not in the recordings list, the journal, its HAR or an export', async () => {
    const upstreamKey = 'sk-or-v1-upstream-secret-0123456789'
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), upstream: 'http://127.0.0.1:9', upstreamKey, onMiss: 'error' })
    const chat = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      {
        model: MODEL,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
        ],
        max_tokens: 100,
      },
      emu.keys.standard,
    )
    expect(chat.status).toBe(200)
    const listed = (await emu.get(`${ADMIN}/recordings`)).body
    expect(listed).toMatchObject({ upstream: 'http://127.0.0.1:9', on_miss: 'error' })
    const shown = [listed, (await emu.get(`${ADMIN}/journal`)).body, (await emu.get(`${ADMIN}/journal/har`)).body, (await emu.get(`${ADMIN}/export`)).body]
    for (const body of shown) expect(JSON.stringify(body)).not.toContain('upstream-secret')
  })

  it('refuses an upstream that is not an http(s) origin, and never repeats a key or credentials in the error', async () => {
    const start = (options: Record<string, unknown>) => createEmulator({ db: ':memory:', logLevel: 'silent', ...options }).catch((e: Error) => e.message)
    expect(await start({ upstream: 'ftp://gateway.example' })).toBe('invalid option upstream "ftp://gateway.example": must be an http or https URL')
    expect(await start({ upstream: 'https://gateway.example.com/api/v1' })).toBe(
      'invalid option upstream "https://gateway.example.com/api/v1": must be an origin only (scheme, host and port, such as https://gateway.example.com): /api/v1/... is appended',
    )
    expect(await start({ upstream: 'https://me:hunter2@gateway.example' })).toBe(
      'invalid option upstream "https://[redacted]@gateway.example": must not carry credentials: give the key with --upstream-key',
    )
    expect(await start({ upstreamKey: 'two\nlines' })).toBe('invalid option upstreamKey: must be one line (it is sent in a header)')
    expect(await start({ record: '/tmp/never' })).toBe('--record (record) needs --upstream <url>: a recording is made of the upstream gateway’s answers')
    expect(await start({ onMiss: 'upstream' })).toBe('--on-miss upstream needs --upstream <url>: there is no upstream to ask')
  })

  it('defaults --on-miss to upstream with --upstream, to generate without', async () => {
    const withUpstream = await testEmulator({ upstream: 'https://gateway.example:8443/' })
    expect((await withUpstream.get(`${ADMIN}/recordings`)).body).toMatchObject({
      on_miss: 'upstream',
      upstream: 'https://gateway.example:8443',
      folder: null,
      data: [],
    })
    const without = await testEmulator()
    expect((await without.get(`${ADMIN}/recordings`)).body).toMatchObject({ on_miss: 'generate', upstream: null, folder: null, total_count: 0 })
  })
})

describe('hand-written files in subfolders', () => {
  it('are tried in name order, the first that matches answers', async () => {
    const second = { ...PARIS, text: { ...PARIS.text, choices: [{ content: 'Lutetia.', finish_reason: 'stop' }] } }
    const emu = await testEmulator({ replay: folderWith({ 'b/later.json': PARIS, 'a/first.json': second, '.hidden/x.json': '{' }), onMiss: 'error' })
    const listed = (await emu.get(`${ADMIN}/recordings`)).body.data.map((r: { file: string }) => r.file)
    expect(listed).toEqual(['a/first.json', 'b/later.json'])
    const res = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      {
        model: MODEL,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
        ],
        max_tokens: 100,
      },
      emu.keys.standard,
    )
    expect(res.body.choices[0].message.content).toBe('Lutetia.')
  })
})
