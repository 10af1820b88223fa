// The contract cases of the catalog (models, endpoints, providers). Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { MODEL, get, send, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'models.list': { gateway: ['get', '/models'] },
  'models.count': { gateway: ['get', '/models/count'] },
  'models.user': { gateway: ['get', '/models/user'] },
  'models.endpoints': { gateway: ['get', '/models/{author}/{slug}/endpoints'] },
  'models.get': { gateway: ['get', '/model/{author}/{slug}'] },
  'embeddings.models': { gateway: ['get', '/embeddings/models'] },
  'providers.list': { gateway: ['get', '/providers'] },
  'endpoints.zdr': { gateway: ['get', '/endpoints/zdr'] },
}

export const cases: Case[] = [
  { operation: 'models.list', name: 'text models', status: 200, run: (emu) => get(emu, '/api/v1/models') },
  {
    operation: 'models.list',
    name: 'every modality, by parameter',
    status: 200,
    run: (emu) => get(emu, '/api/v1/models?output_modalities=all&supported_parameters=tools'),
  },
  { operation: 'models.list', name: 'embeddings models', status: 200, run: (emu) => get(emu, '/api/v1/models?output_modalities=embeddings') },
  { operation: 'models.list', name: 'the RSS feed', status: 200, run: (emu) => get(emu, '/api/v1/models?use_rss=true') },
  { operation: 'models.list', name: 'a bad category', status: 400, run: (emu) => get(emu, '/api/v1/models?category=nonsense') },
  { operation: 'models.list', name: 'a bad output modality', status: 400, run: (emu) => get(emu, '/api/v1/models?output_modalities=smell') },
  { operation: 'models.count', name: 'the count', status: 200, run: (emu) => get(emu, '/api/v1/models/count') },
  { operation: 'models.count', name: 'a bad output modality', status: 400, run: (emu) => get(emu, '/api/v1/models/count?output_modalities=smell') },
  { operation: 'models.user', name: "the caller's models", status: 200, run: (emu) => get(emu, '/api/v1/models/user', emu.keys.standard) },
  ...authCases('models.user', (emu, key) => get(emu, '/api/v1/models/user', key), 'any'),
  { operation: 'models.endpoints', name: 'a model', status: 200, run: (emu) => get(emu, `/api/v1/models/${MODEL}/endpoints`) },
  { operation: 'models.endpoints', name: 'a chat model', status: 200, run: (emu) => get(emu, '/api/v1/models/openai/gpt-4o/endpoints') },
  { operation: 'models.endpoints', name: 'an unknown model', status: 404, run: (emu) => get(emu, '/api/v1/models/nobody/nothing/endpoints') },
  { operation: 'models.get', name: 'a model', status: 200, run: (emu) => get(emu, '/api/v1/model/openai/gpt-4o') },
  { operation: 'models.get', name: 'a free variant', status: 200, run: (emu) => get(emu, '/api/v1/model/qwen/qwen3-coder:free') },
  { operation: 'models.get', name: 'an unknown model', status: 404, run: (emu) => get(emu, '/api/v1/model/nobody/nothing') },
  { operation: 'embeddings.models', name: 'the whole list', status: 200, run: (emu) => get(emu, '/api/v1/embeddings/models') },
  { operation: 'embeddings.models', name: 'a page', status: 200, run: (emu) => get(emu, '/api/v1/embeddings/models?offset=1&limit=2') },
  { operation: 'embeddings.models', name: 'a limit of 0', status: 400, run: (emu) => get(emu, '/api/v1/embeddings/models?limit=0') },
  { operation: 'providers.list', name: 'the providers', status: 200, run: (emu) => get(emu, '/api/v1/providers') },
  {
    operation: 'providers.list',
    name: 'a fault rule',
    status: 500,
    run: async (emu) => {
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'providers.list' }, action: { status: 500 } })
      return get(emu, '/api/v1/providers')
    },
  },
  { operation: 'endpoints.zdr', name: 'the preview', status: 200, run: (emu) => get(emu, '/api/v1/endpoints/zdr') },
  {
    operation: 'endpoints.zdr',
    name: 'a 500 fault',
    status: 500,
    run: async (emu) => (
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'endpoints.zdr' }, action: { status: 500 } }),
      get(emu, '/api/v1/endpoints/zdr')
    ),
  },
]
