// Every model the catalog lists can be called on the surface its output modalities say: a text model
// answers chat, an embeddings model embeddings, an image model images, a speech model speech, a
// transcription model transcriptions, a rerank model rerank and a video model videos. A model that
// could be listed but never called is a bug a user meets as a 400 in the middle of a demo.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

interface CatalogModel {
  id: string
  architecture: { input_modalities: string[]; output_modalities: string[] }
  supported_voices?: string[] | null
}

/** A second of silence as a WAV file, base64 (16 kHz mono 16-bit). */
function silentWav(): string {
  const samples = 16_000
  const data = Buffer.alloc(samples * 2)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(16_000, 24)
  header.writeUInt32LE(32_000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data]).toString('base64')
}

/** The request that calls a model on the surface its modalities say. */
function callFor(model: CatalogModel): { path: string; body: Record<string, unknown> } {
  const out = model.architecture.output_modalities
  if (out.includes('text'))
    return { path: '/api/v1/chat/completions', body: { model: model.id, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 } }
  if (out.includes('embeddings')) return { path: '/api/v1/embeddings', body: { model: model.id, input: 'Hello' } }
  if (out.includes('image')) return { path: '/api/v1/images', body: { model: model.id, prompt: 'a lighthouse at dusk' } }
  if (out.includes('speech') || out.includes('audio'))
    return { path: '/api/v1/audio/speech', body: { model: model.id, input: 'Hello there', voice: model.supported_voices?.[0], response_format: 'wav' } }
  if (out.includes('transcription'))
    return { path: '/api/v1/audio/transcriptions', body: { model: model.id, input_audio: { data: silentWav(), format: 'wav' } } }
  if (out.includes('rerank')) return { path: '/api/v1/rerank', body: { model: model.id, query: 'lighthouses', documents: ['a lighthouse', 'a teapot'] } }
  if (out.includes('video')) return { path: '/api/v1/videos', body: { model: model.id, prompt: 'waves on rocks' } }
  throw new Error(`${model.id}: no surface for output modalities ${out.join(', ')}`)
}

describe('the catalog', () => {
  it('lists no model that cannot be called on the surface its modalities say', async () => {
    const emu: TestEmulator = await testEmulator()
    const models = (await emu.get('/api/v1/models?output_modalities=all')).body.data as CatalogModel[]
    expect(models.length).toBeGreaterThan(60)
    const refused: string[] = []
    for (const model of models) {
      const { path, body } = callFor(model)
      const res = await emu.send('POST', path, body, emu.keys.standard)
      if (res.status >= 300) refused.push(`${model.id} on ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    }
    expect(refused).toEqual([])
  })
})
