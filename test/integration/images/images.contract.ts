// The contract cases of images. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { CHAT_MODEL, get, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'images.create': { gateway: ['post', '/images'] },
  'images.generations': { own: "OpenAI's image generation (the path the openai client's images.generate posts), absent from the real document" },
  'images.models': { gateway: ['get', '/images/models'] },
  'images.models.endpoints': { gateway: ['get', '/images/models/{author}/{slug}/endpoints'] },
}

export const cases: Case[] = [
  ...((): Case[] => {
    const image = (body: Record<string, unknown>, key?: string) => (emu: TestEmulator) =>
      send(emu, 'POST', '/api/v1/images', { model: 'openai/gpt-image-1', prompt: 'a red panda', ...body }, key ?? emu.keys.standard)
    const openAi = (body: Record<string, unknown>) => (emu: TestEmulator) =>
      send(emu, 'POST', '/api/v1/images/generations', { model: 'openai/gpt-image-1', prompt: 'a red panda', ...body }, emu.keys.standard)
    return [
      { operation: 'images.create', name: 'a png', status: 200, run: image({}) },
      { operation: 'images.create', name: 'two webp at 3:2', status: 200, run: image({ n: 2, aspect_ratio: '3:2', output_format: 'webp' }) },
      {
        operation: 'images.create',
        name: 'a 2K jpeg with a seed',
        status: 200,
        run: image({ model: 'bytedance-seed/seedream-4.5', size: '2K', output_format: 'jpeg', seed: 1 }),
      },
      { operation: 'images.create', name: 'no prompt', status: 400, run: image({ prompt: undefined }) },
      { operation: 'images.create', name: 'a bad aspect ratio', status: 400, run: image({ aspect_ratio: '7:3' }) },
      { operation: 'images.create', name: 'a model that makes no images', status: 400, run: image({ model: CHAT_MODEL }) },
      { operation: 'images.create', name: 'n over the model’s bound', status: 400, run: image({ model: 'openai/dall-e-3', n: 2 }) },
      { operation: 'images.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/images', emu.keys.standard) },
      { operation: 'images.create', name: 'no provider left', status: 404, run: image({ provider: { only: ['nobody'] } }) },
      { operation: 'images.create', name: 'no credits', status: 402, run: async (emu) => image({}, await brokeAccountKey(emu))(emu) },
      {
        operation: 'images.create',
        name: 'rate limited',
        status: 429,
        options: { rateLimitKeyPerMinute: 1 },
        run: async (emu) => (await image({})(emu), image({})(emu)),
      },
      ...authCases('images.create', (emu, key) => send(emu, 'POST', '/api/v1/images', { model: 'openai/gpt-image-1', prompt: 'x' }, key), 'standard'),
      ...[500, 502, 529].map((status): Case => ({
        operation: 'images.create',
        name: `a ${status} fault`,
        status,
        run: async (emu) => {
          await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'images.create' }, action: { status } })
          return image({})(emu)
        },
      })),
      { operation: 'images.generations', name: 'b64_json', status: 200, run: openAi({ size: '1536x1024' }) },
      { operation: 'images.generations', name: 'a data URL', status: 200, run: openAi({ response_format: 'url', output_format: 'jpeg' }) },
      { operation: 'images.generations', name: 'stream', status: 400, run: openAi({ stream: true }) },
      {
        operation: 'images.generations',
        name: 'no credits',
        status: 402,
        run: async (emu) => send(emu, 'POST', '/api/v1/images/generations', { model: 'openai/gpt-image-1', prompt: 'x' }, await brokeAccountKey(emu)),
      },
      { operation: 'images.models', name: 'the list', status: 200, run: (emu) => get(emu, '/api/v1/images/models') },
      {
        operation: 'images.models',
        name: 'a 500 fault',
        status: 500,
        run: (emu) => emu.request({ method: 'GET', url: '/api/v1/images/models', headers: { 'x-emulator-fault': '500' } }),
      },
      {
        operation: 'images.models.endpoints',
        name: 'an image model',
        status: 200,
        run: (emu) => get(emu, '/api/v1/images/models/bytedance-seed/seedream-4.5/endpoints'),
      },
      { operation: 'images.models.endpoints', name: 'a text model', status: 404, run: (emu) => get(emu, `/api/v1/images/models/${CHAT_MODEL}/endpoints`) },
      { operation: 'images.models.endpoints', name: 'an unknown model', status: 404, run: (emu) => get(emu, '/api/v1/images/models/nobody/nothing/endpoints') },
    ]
  })(),
]
