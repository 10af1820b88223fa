// The request detail of the other surfaces, from journal entries: a rerank's documents in the order
// ranked with their scores and original places, a transcription's text and seconds, speech's text and
// audio, an image generation's prompt (its answer usually cut by the journal, said plainly), errors in
// the gateway's envelope; and the files an answer carried, with the admin API address, alt text,
// download name, and what a browser cannot play or the journal dropped. Bodies as the real document shows them.
import { describe, expect, it } from 'vitest'
import { mediaItems, promptOf, surfaceDetail, surfaceOf, type SurfaceSource } from '../../../src/renderer/src/features/requests/surfaces.ts'

const GEN = 'gen-1772618400-1ZxCwmI8CDL2nwbupS8E'

function entry(operation: string, request: unknown, response: string | null, more: Partial<SurfaceSource> = {}): SurfaceSource {
  const body = typeof request === 'string' ? request : JSON.stringify(request)
  return {
    id: 7,
    operation,
    status: 200,
    request: { headers: { 'content-type': 'application/json' }, body, body_bytes: body.length },
    response: { headers: { 'content-type': 'application/json; charset=utf-8', 'x-generation-id': GEN }, body: response, body_bytes: response?.length ?? 0 },
    ...more,
  }
}
const cutAt = (text: string, limit: number): string => `${text.slice(0, limit)}… (${text.length - limit} more bytes)`
const fact = (facts: Array<[string, string | null]>, name: string) => facts.find(([label]) => label === name)?.[1]

describe('the surfaces', () => {
  it('are images, speech, transcriptions and rerank', () => {
    expect(['images.create', 'images.generations', 'audio.speech', 'audio.transcriptions', 'rerank.create', 'chat.create'].map(surfaceOf)).toEqual([
      'images',
      'images',
      'speech',
      'transcription',
      'rerank',
      null,
    ])
    expect(surfaceDetail(entry('embeddings.create', {}, '{}'))).toBeNull()
  })
})

describe('a rerank', () => {
  const request = {
    model: 'cohere/rerank-v3.5',
    query: 'What is the capital of France?',
    documents: [
      'Berlin is the capital of Germany.',
      'Paris is the capital of France.',
      { text: 'Otters swim.', image: `data:image/png;base64,${'A'.repeat(3000)}` },
    ],
    top_n: 2,
  }
  const answer = {
    id: 'gen-rerank-1772618400-J45SaWiMzeNNWHvlCnRE',
    model: 'cohere/rerank-v3.5',
    provider: 'Cohere',
    results: [
      { index: 1, relevance_score: 0.98, document: { text: 'Paris is the capital of France.' } },
      // A document the answer did not echo: the request's copy stands in.
      { index: 2, relevance_score: 0.0445, document: {} },
    ],
    usage: { search_units: 1, total_tokens: 28, cost: 0.002 },
  }

  it('shows the query and the documents in the order ranked, with their scores and places in the request', () => {
    const detail = surfaceDetail(entry('rerank.create', request, JSON.stringify(answer)))
    expect(detail).toMatchObject({ kind: 'rerank', query: 'What is the capital of France?', documentCount: 3, topN: 2, error: null })
    if (detail?.kind !== 'rerank') throw new Error('not a rerank')
    expect(detail.ranked).toEqual([
      { rank: 1, index: 1, score: 0.98, text: 'Paris is the capital of France.', image: null },
      { rank: 2, index: 2, score: 0.0445, text: 'Otters swim.', image: 'data:image/png data URI, 3 KB' },
    ])
    expect(detail.facts).toEqual([
      ['Model', 'cohere/rerank-v3.5'],
      ['Provider', 'Cohere'],
      ['Search units', '1'],
      ['Tokens', '28'],
      ['Cost', '$0.002'],
      ['Generation id', GEN],
    ])
  })

  it('shows the gateway’s error, and says why a cut request’s query is not shown', () => {
    const error = { error: { code: 400, message: 'Field `documents` must not be empty' } }
    const failed = surfaceDetail(entry('rerank.create', { ...request, documents: [] }, JSON.stringify(error), { status: 400 }))
    expect(failed).toMatchObject({ error: { code: 400, message: 'Field `documents` must not be empty' }, ranked: [] })

    const body = JSON.stringify(request)
    const cut = surfaceDetail(entry('rerank.create', cutAt(body, 40), JSON.stringify(answer)))
    expect(cut).toMatchObject({ query: null, documentCount: null })
    expect(cut?.requestProblem).toMatch(/kept only the first part of the request body \(\d+ more bytes were cut\)/)
    if (cut?.kind !== 'rerank') throw new Error('not a rerank')
    expect(cut.ranked.map((d) => d.text)).toEqual(['Paris is the capital of France.', null])
  })
})

describe('a transcription', () => {
  it('shows the text heard, the audio’s seconds, the tokens and cost', () => {
    const request = { model: 'openai/whisper-large-v3', input_audio: { data: 'A'.repeat(4096), format: 'wav' }, language: 'en' }
    const answer = { text: 'Hello, this is a test.', usage: { cost: 0.000508, input_tokens: 83, output_tokens: 30, seconds: 9.2, total_tokens: 113 } }
    const detail = surfaceDetail(entry('audio.transcriptions', request, JSON.stringify(answer)))
    expect(detail).toMatchObject({ kind: 'transcription', text: 'Hello, this is a test.', segments: [], audio: 'wav, 3 KB (base64 in input_audio)' })
    expect(detail!.facts).toEqual([
      ['Model', 'openai/whisper-large-v3'],
      ['Audio length', '9.2 s'],
      ['Language', 'en'],
      ['Tokens', '83 input + 30 output'],
      ['Cost', '$0.000508'],
      ['Generation id', GEN],
    ])
  })

  it('says a request cut by the journal (its base64 audio) leaves its fields unknown, and still shows the text', () => {
    const request = JSON.stringify({ model: 'openai/whisper-large-v3', input_audio: { data: 'A'.repeat(40_000), format: 'wav' } })
    const answer = { text: 'If we parse.', usage: { seconds: 1, input_tokens: 10, output_tokens: 4, total_tokens: 14, cost: 0.0001 } }
    const detail = surfaceDetail({
      ...entry('audio.transcriptions', cutAt(request, 16_384), JSON.stringify(answer)),
      request: { headers: { 'content-type': 'application/json' }, body: cutAt(request, 16_384), body_bytes: request.length },
    })
    expect(detail).toMatchObject({ text: 'If we parse.', audio: 'base64 audio in input_audio (a 39 KB request)' })
    expect(detail!.requestProblem).toMatch(/\(\d+ more bytes were cut, most of them base64 audio\), so its fields are not shown/)
    expect(fact(detail!.facts, 'Model')).toBeNull()
    expect(fact(detail!.facts, 'Audio length')).toBe('1 s')
  })

  it('shows verbose_json segments and duration, and a form upload as such', () => {
    const answer = {
      text: 'Hello there. Bye.',
      task: 'transcribe',
      language: 'english',
      duration: 4.5,
      segments: [
        { id: 0, start: 0, end: 3.2, text: 'Hello there.' },
        { id: 1, start: 3.2, end: 4.5, text: 'Bye.' },
      ],
    }
    const form = '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nopenai/whisper-1\r\n--x--'
    const detail = surfaceDetail({
      ...entry('audio.transcriptions', form, JSON.stringify(answer)),
      request: { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: form, body_bytes: 2048 },
    })
    expect(detail).toMatchObject({ audio: 'a file uploaded as a multipart form (2 KB)', requestProblem: null })
    if (detail?.kind !== 'transcription') throw new Error('not a transcription')
    expect(detail.segments).toEqual([
      { start: 0, end: 3.2, text: 'Hello there.' },
      { start: 3.2, end: 4.5, text: 'Bye.' },
    ])
    expect(fact(detail.facts, 'Audio length')).toBe('4.5 s')
    expect(fact(detail.facts, 'Language')).toBe('english')
  })
})

describe('speech', () => {
  it('shows the text spoken, the voice, the format (pcm by default) and the audio answered', () => {
    const detail = surfaceDetail({
      ...entry('audio.speech', { model: 'openai/gpt-4o-mini-tts', input: 'Hello otters', voice: 'alloy' }, 'RIFF….'),
      response: { headers: { 'content-type': 'audio/pcm', 'x-generation-id': GEN }, body: '(binary)', body_bytes: 48_000 },
    })
    expect(detail).toMatchObject({ kind: 'speech', input: 'Hello otters', error: null })
    expect(detail!.facts).toEqual([
      ['Model', 'openai/gpt-4o-mini-tts'],
      ['Voice', 'alloy'],
      ['Format', 'pcm (the default)'],
      ['Speed', null],
      ['Audio', 'audio/pcm, 47 KB'],
      ['Generation id', GEN],
    ])
  })

  it('shows a refusal in the gateway’s envelope', () => {
    const error = { error: { code: 400, message: 'Field `response_format` must be one of mp3, pcm' } }
    const detail = surfaceDetail(
      entry('audio.speech', { model: 'm', input: 'Hi', response_format: 'wav' }, JSON.stringify(error), {
        status: 400,
      }),
    )
    expect(detail).toMatchObject({ error: { code: 400, message: 'Field `response_format` must be one of mp3, pcm' } })
    expect(fact(detail!.facts, 'Audio')).toBeNull()
    expect(fact(detail!.facts, 'Format')).toBe('wav')
  })
})

describe('an image generation', () => {
  const request = { model: 'openai/gpt-image-1', prompt: 'a red panda astronaut', n: 2, size: '1024x1024' }

  it('shows the prompt and options, and says an answer cut by the journal (its base64 images) leaves the usage unknown', () => {
    const answer = JSON.stringify({
      created: 1772618400,
      data: [{ b64_json: 'A'.repeat(40_000) }],
      usage: { prompt_tokens: 0, completion_tokens: 4175, cost: 0.04 },
    })
    const detail = surfaceDetail({
      ...entry('images.generations', request, cutAt(answer, 16_384)),
      media: [
        { index: 0, content_type: 'image/png', bytes: 29_786, kept: true },
        { index: 1, content_type: 'image/png', bytes: 29_000, kept: true },
      ],
    })
    expect(detail).toMatchObject({
      kind: 'images',
      prompt: 'a red panda astronaut',
      options: [
        ['n', '2'],
        ['size', '1024x1024'],
      ],
    })
    expect(detail!.answerProblem).toMatch(/kept only the first part of the answer \(\d+ more bytes were cut, most of them base64 image data\)/)
    expect(detail!.answerProblem).toContain('shown from the journal’s own copies')
    expect(fact(detail!.facts, 'Images')).toBe('2')
    expect(fact(detail!.facts, 'Cost')).toBeNull()
  })

  it('shows the usage of an answer kept whole', () => {
    const answer = {
      created: 1772618400,
      data: [{ b64_json: 'iVBORw0KGgo=' }],
      usage: { prompt_tokens: 7, completion_tokens: 4175, total_tokens: 4182, cost: 0.04 },
    }
    const detail = surfaceDetail(entry('images.create', request, JSON.stringify(answer)))
    expect(detail!.facts).toEqual([
      ['Model', 'openai/gpt-image-1'],
      ['Images', '1'],
      ['Tokens', '7 input + 4175 output'],
      ['Cost', '$0.04'],
      ['Generation id', GEN],
    ])
    expect(detail!.answerProblem).toBeNull()
  })
})

describe('the files an answer carried', () => {
  it('are served by the admin API, described by the prompt that made them, with a download name', () => {
    const items = mediaItems({
      id: 12,
      operation: 'images.generations',
      request: { body: JSON.stringify({ model: 'm', prompt: 'a   red panda\nastronaut' }) },
      media: [
        { index: 0, content_type: 'image/png', bytes: 29_786, kept: true },
        { index: 1, content_type: 'image/webp', bytes: 1000, kept: true },
      ],
    })
    expect(items).toEqual([
      {
        index: 0,
        kind: 'image',
        url: '/_emulator/api/journal/12/media/0',
        contentType: 'image/png',
        bytes: 29_786,
        playable: true,
        filename: 'request-12-image-1.png',
        description: 'Image 1 of 2: a red panda astronaut',
      },
      expect.objectContaining({
        index: 1,
        url: '/_emulator/api/journal/12/media/1',
        filename: 'request-12-image-2.webp',
        description: 'Image 2 of 2: a red panda astronaut',
      }),
    ])
  })

  it('say speech is the text spoken, and that raw PCM cannot be played', () => {
    const speech = (type: string) =>
      mediaItems({
        id: 3,
        operation: 'audio.speech',
        request: { body: JSON.stringify({ input: 'Hello otters' }) },
        media: [{ index: 0, content_type: type, bytes: 9, kept: true }],
      })[0]
    expect(speech('audio/wav')).toMatchObject({ kind: 'audio', playable: true, description: 'Speech of “Hello otters”', filename: 'request-3-audio-1.wav' })
    expect(speech('audio/mpeg')).toMatchObject({ playable: true, filename: 'request-3-audio-1.mp3' })
    expect(speech('audio/pcm')).toMatchObject({ playable: false, url: '/_emulator/api/journal/3/media/0', filename: 'request-3-audio-1.pcm' })
  })

  it('leave a dropped file without an address, named for what its operation makes', () => {
    const [dropped] = mediaItems({ id: 4, operation: 'videos.content', media: [{ index: 0, content_type: null, bytes: null, kept: false }] })
    expect(dropped).toMatchObject({ url: null, playable: false, kind: 'video', description: 'Video' })
    const [image] = mediaItems({ id: 4, operation: 'images.create', media: [{ index: 0, content_type: null, bytes: null, kept: false }] })
    expect(image).toMatchObject({ url: null, playable: false, kind: 'image', filename: 'request-4-image-1.bin' })
    const [video] = mediaItems({ id: 5, operation: 'videos.content', media: [{ index: 0, content_type: 'video/mp4', bytes: 1e6, kept: true }] })
    expect(video).toMatchObject({ kind: 'video', playable: true, filename: 'request-5-video-1.mp4', description: 'Video' })
  })

  it('take a chat’s prompt from its last user message, and a Responses prompt from its input', () => {
    const chat = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'x' },
        { role: 'user', content: [{ type: 'text', text: 'Draw an otter' }] },
      ],
    }
    expect(promptOf('chat.create', JSON.stringify(chat))).toBe('Draw an otter')
    expect(promptOf('responses.create', JSON.stringify({ input: 'Draw a seal' }))).toBe('Draw a seal')
    expect(promptOf('images.create', cutAt(JSON.stringify({ prompt: 'x'.repeat(100) }), 20))).toBeNull()
  })
})
