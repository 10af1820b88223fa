// The bundled CLI (out/cli/cli.js, built when older than the sources) as `npm start` and the package's
// bin run it: its media worker is an entry of the bundle of its own (out/cli/media-worker.js), found
// beside the chunk that starts it. An image and a speech large enough to be made in a worker thread.
import { afterEach, describe, expect, it } from 'vitest'
import { startCliProcess, type CliProcess } from '../../../scripts/cli-process.ts'

let cli: CliProcess | undefined

afterEach(async () => {
  if (cli && cli.child.exitCode === null) {
    cli.child.kill('SIGTERM')
    await cli.exited
  }
  cli = undefined
})

const post = (path: string, body: Record<string, unknown>) =>
  fetch(`${cli!.base}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cli!.standard}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('the bundled CLI', () => {
  it('draws an image and says a speech in its media worker threads', { timeout: 120_000 }, async () => {
    cli = await startCliProcess(['--port', '0', '--eu-port', 'off', '--db', ':memory:', '--log-level', 'warn'])
    const image = await post('/images', { model: 'openai/gpt-image-1', prompt: 'a lighthouse at dusk' })
    expect(image.status).toBe(200)
    const png = Buffer.from(((await image.json()) as { data: Array<{ b64_json: string }> }).data[0]!.b64_json, 'base64')
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(png.readUInt32BE(16)).toBe(1024)

    const speech = await post('/audio/speech', { model: 'openai/gpt-4o-mini-tts', input: 'Said by a worker thread of the bundle.', response_format: 'wav' })
    expect(speech.status).toBe(200)
    const wav = Buffer.from(await speech.arrayBuffer())
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect(wav.length).toBe(Number(speech.headers.get('content-length')))
  })
})
