// Fuzzing every gateway, router and admin operation: valid requests mutated into bad ones (wrong
// types, missing and extra fields, huge and empty strings, unicode and control characters, deep
// nesting, malformed JSON, wrong content types, absurd numbers, bad path segments and queries, other
// spellings of the path: repeated slashes, encoded characters, dot segments), and for chat: hostile
// JSON Schemas (huge bounds, patterns, enums, cycles) in structured outputs and tools, every `n` as
// JSON and as a stream, and fixture rules with pathological regular expressions; for the media and
// multipart surfaces (files, transcriptions, videos, the video router, images): forms broken every way
// (parts missing, doubled, oversized, named like Object's properties, cut short, declared longer than
// their route takes) and inline media replaced (bad data URIs and base64, escapes, past their bound).
// Every answer must be a success or a 4xx in the right envelope: never a 5xx, a crash or a hang; a
// heartbeat (GET /_emulator/api/health over a socket) runs beside the whole run and must always
// answer within a second.
import fc from 'fast-check'
import { request as httpRequest } from 'node:http'
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.ts'
import { png } from '../../helpers/images.ts'

interface FilePart {
  field: string
  name: string
  type: string
  bytes: Buffer
}

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: string
  key?: 'management' | 'standard'
  body?: Record<string, unknown>
  /** A multipart form instead of a JSON body: its text fields (which the mutations change) and files. */
  form?: { fields: Record<string, string>; files: FilePart[] }
  /** Where the body carries inline media (data URIs, base64), which the `media` mutation replaces. */
  media?: Array<Array<string | number>>
}

const IMG = 'https://example.com/frame.png'
/** A small PNG (16:9), inline as the media surfaces take it. */
const PNG_BASE64 = png(64, 36).toString('base64')
const PNG_DATA = `data:image/png;base64,${PNG_BASE64}`
/** Half a second of silence at 24 kHz, as raw 16-bit PCM. */
const PCM = Buffer.alloc(24_000, 1)
/** A free model whose catalog entry has no output bound: the answer budget is the emulator's default. */
const CHAT_MODEL = 'qwen/qwen3-coder:free'
const CHAT_TOOL = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }

/** A valid request of each operation, which the fuzzer then mutates. */
const OPERATIONS: Operation[] = [
  { method: 'GET', path: '/api/v1/keys?include_disabled=true&offset=0', key: 'management' },
  {
    method: 'PATCH',
    path: '/api/v1/keys/{hash}',
    key: 'management',
    body: { name: 'n', disabled: false, limit: 5, limit_reset: 'daily', include_byok_in_limit: true },
  },
  {
    method: 'POST',
    path: '/api/v1/keys',
    key: 'management',
    body: { name: 'k', limit: 5, limit_reset: 'weekly', include_byok_in_limit: true, expires_at: '2030-01-01T00:00:00Z', creator_user_id: null },
  },
  { method: 'GET', path: '/api/v1/keys/{hash}', key: 'management' },
  // An unknown hash: deleting the seeded key would leave the standard-key operations nothing to fuzz.
  { method: 'DELETE', path: `/api/v1/keys/${'f'.repeat(64)}`, key: 'management' },
  {
    method: 'POST',
    path: '/api/v1/auth/keys/code',
    key: 'management',
    body: {
      callback_url: 'http://localhost:3000/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      limit: 1,
      usage_limit_type: 'daily',
      key_label: 'l',
    },
  },
  {
    method: 'POST',
    path: '/api/v1/auth/keys',
    body: { code: 'auth_code_abc123def456', code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', code_challenge_method: 'S256' },
  },
  {
    method: 'POST',
    path: '/_emulator/api/oauth/authorize',
    body: { callback_url: 'https://app.example/cb', code_challenge: 'plain-verifier', code_challenge_method: 'plain' },
  },
  { method: 'GET', path: '/api/v1/models?output_modalities=text&category=programming&supported_parameters=tools&limit=5&offset=1' },
  { method: 'GET', path: '/api/v1/models?use_rss=true' },
  { method: 'GET', path: '/api/v1/models/user?region=eu', key: 'standard' },
  { method: 'GET', path: '/api/v1/models/openai/gpt-4.1/endpoints' },
  { method: 'GET', path: '/api/v1/endpoints/zdr' },
  { method: 'GET', path: '/api/v1/model/openai/gpt-4.1' },
  { method: 'GET', path: '/api/v1/providers' },
  { method: 'GET', path: '/api/v1/embeddings/models?offset=0&limit=5' },
  {
    method: 'POST',
    path: '/api/v1/guardrails',
    key: 'management',
    body: {
      name: 'g',
      description: 'd',
      limit_usd: 1,
      reset_interval: 'weekly',
      allowed_providers: ['openai'],
      allowed_models: ['openai/gpt-4.1'],
      enforce_zdr: false,
    },
  },
  { method: 'PATCH', path: '/api/v1/guardrails/{guardrail}', key: 'management', body: { name: 'h', ignored_providers: ['azure'] } },
  { method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/keys', key: 'management', body: { key_hashes: ['{hash}'] } },
  { method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/members/remove', key: 'management', body: { member_user_ids: ['user_x'] } },
  { method: 'GET', path: '/api/v1/byok?provider=openai&offset=0&limit=5', key: 'management' },
  {
    method: 'POST',
    path: '/api/v1/byok',
    key: 'management',
    body: {
      provider: 'openai',
      key: 'sk-fuzz-0123456789',
      name: 'n',
      is_fallback: true,
      allowed_models: ['openai/gpt-4.1'],
      allowed_api_key_hashes: ['{hash}'],
    },
  },
  { method: 'PATCH', path: '/api/v1/byok/00000000-0000-4000-8000-000000000000', key: 'management', body: { key: 'sk-rotated', disabled: true } },
  { method: 'GET', path: '/api/v1/observability/destinations?offset=0&limit=5', key: 'management' },
  {
    method: 'POST',
    path: '/api/v1/observability/destinations',
    key: 'management',
    body: {
      type: 'webhook',
      name: 'w',
      config: { url: 'http://127.0.0.1:9/traces', method: 'POST', headers: { authorization: 'Bearer x' } },
      sampling_rate: 0.5,
      api_key_hashes: ['{hash}'],
      filter_rules: { groups: [{ logic: 'or', rules: [{ field: 'model', operator: 'regex', value: 'gpt' }] }] },
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/observability/destinations/00000000-0000-4000-8000-000000000000',
    key: 'management',
    body: { name: 'x', enabled: false, config: { url: 'http://127.0.0.1:9/h' } },
  },
  {
    method: 'POST',
    path: '/api/v1/presets/fuzz/chat/completions',
    key: 'management',
    body: {
      model: CHAT_MODEL,
      messages: [{ role: 'system', content: 'Be brief.' }],
      temperature: 0.5,
      stop: ['x'],
      reasoning: { effort: 'low' },
      provider: { order: ['openai'] },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/presets/fuzz/messages',
    key: 'management',
    body: {
      model: 'anthropic/claude-sonnet-4',
      messages: [],
      system: [{ type: 'text', text: 'Be brief.' }],
      max_tokens: 64,
      thinking: { type: 'enabled', budget_tokens: 32 },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/presets/fuzz/responses',
    key: 'management',
    body: { model: CHAT_MODEL, instructions: 'Be brief.', max_output_tokens: 64, reasoning: { effort: 'low', summary: 'auto' } },
  },
  { method: 'GET', path: '/api/v1/presets?offset=0&limit=5', key: 'standard' },
  { method: 'GET', path: '/api/v1/presets/fuzz', key: 'standard' },
  { method: 'GET', path: '/api/v1/presets/fuzz/versions?offset=0&limit=5', key: 'standard' },
  { method: 'GET', path: '/api/v1/presets/fuzz/versions/1', key: 'standard' },
  {
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: '@preset/fuzz', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50 },
  },
  {
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: { model: `${CHAT_MODEL}@preset/fuzz`, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
  },
  { method: 'POST', path: '/api/v1/responses', key: 'standard', body: { model: CHAT_MODEL, preset: 'fuzz', input: 'hi', max_output_tokens: 50 } },
  // Workspaces: budgets go on the created one ("fuzz"), so a mutated limit never blocks the billed operations.
  {
    method: 'POST',
    path: '/api/v1/workspaces',
    key: 'management',
    body: { name: 'w', slug: 'fuzz', description: 'd', default_text_model: 'openai/gpt-4o', default_provider_sort: 'price', io_logging_api_key_ids: [1] },
  },
  { method: 'GET', path: '/api/v1/workspaces?offset=0&limit=5', key: 'management' },
  {
    method: 'PATCH',
    path: '/api/v1/workspaces/default',
    key: 'management',
    body: { name: 'n', io_logging_sampling_rate: 0.5, is_observability_broadcast_enabled: true },
  },
  { method: 'PUT', path: '/api/v1/workspaces/fuzz/budgets/monthly', key: 'management', body: { limit_usd: 100, include_byok_in_budgets: true } },
  { method: 'DELETE', path: '/api/v1/workspaces/fuzz/budgets/daily', key: 'management' },
  { method: 'GET', path: '/api/v1/workspaces/default/members?offset=0&limit=5', key: 'management' },
  { method: 'POST', path: '/api/v1/workspaces/fuzz/members/add', key: 'management', body: { user_ids: ['user_x'] } },
  { method: 'POST', path: '/api/v1/workspaces/fuzz/members/remove', key: 'management', body: { user_ids: ['user_x'] } },
  {
    method: 'POST',
    path: '/api/v1/credits/crypto',
    key: 'standard',
    body: { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 },
  },
  { method: 'GET', path: '/api/v1/credits', key: 'standard' },
  { method: 'GET', path: '/api/v1/organization/members?offset=0&limit=5', key: 'management' },
  { method: 'GET', path: '/api/v1/scim/groups?offset=1&limit=5', key: 'management' },
  { method: 'GET', path: '/api/v1/scim/group-mappings?offset=0&limit=5', key: 'management' },
  {
    method: 'POST',
    path: '/api/v1/scim/group-mappings',
    key: 'management',
    body: { scim_group_id: '00000000-0000-4000-8000-000000000000', workspace_id: '00000000-0000-4000-8000-000000000000', role: 'member' },
  },
  { method: 'PATCH', path: '/api/v1/scim/group-mappings/00000000-0000-4000-8000-000000000000', key: 'management', body: { role: 'admin' } },
  { method: 'DELETE', path: '/api/v1/scim/group-mappings/00000000-0000-4000-8000-000000000000?keep_members=true', key: 'management' },
  { method: 'GET', path: '/api/v1/files?limit=5&order=asc&after_id=or_file_x', key: 'standard' },
  { method: 'POST', path: '/api/v1/files?provider=openai', key: 'standard', body: { file: 'not a form' } },
  { method: 'GET', path: '/api/v1/files/or_file_x?provider=anthropic', key: 'standard' },
  { method: 'GET', path: '/api/v1/files/or_file_x/content', key: 'standard' },
  { method: 'DELETE', path: '/api/v1/files/or_file_x', key: 'standard' },
  {
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/files',
    body: { filename: 'f.txt', content_base64: 'aGVsbG8=' },
    media: [['content_base64']],
  },
  { method: 'GET', path: '/api/v1/generation/content?id=gen-0-x', key: 'standard' },
  { method: 'POST', path: '/api/v1/generation/feedback', key: 'management', body: { generation_id: 'gen-0-x', category: 'other', comment: 'c' } },
  {
    method: 'POST',
    path: '/api/v1/embeddings',
    key: 'standard',
    body: { model: 'openai/text-embedding-3-small', input: ['a', 'b'], dimensions: 8, encoding_format: 'base64', provider: { order: ['openai'] } },
  },
  {
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: {
      model: 'openai/gpt-image-1',
      prompt: 'p',
      n: 2,
      size: '1024x1024',
      output_format: 'webp',
      background: 'transparent',
      input_references: [{ type: 'image_url', image_url: { url: IMG } }],
      provider: { order: ['openai'] },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: { model: 'bytedance-seed/seedream-4.5', prompt: 'p', resolution: '2K', aspect_ratio: '16:9', output_format: 'jpeg', seed: 1 },
  },
  {
    method: 'POST',
    path: '/api/v1/images/generations',
    key: 'standard',
    body: { model: 'openai/dall-e-3', prompt: 'p', size: '1792x1024', response_format: 'url', quality: 'hd' },
  },
  { method: 'GET', path: '/api/v1/images/models' },
  { method: 'GET', path: '/api/v1/images/models/openai/gpt-image-1/endpoints' },
  {
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: 'openai/gpt-image-1', messages: [{ role: 'user', content: 'p' }], modalities: ['image'], image_config: { aspect_ratio: '3:2' } },
  },
  {
    method: 'POST',
    path: '/api/v1/audio/speech',
    key: 'standard',
    body: { model: 'openai/gpt-4o-mini-tts', input: 'Hello there.', voice: 'nova', response_format: 'mp3', speed: 2 },
  },
  {
    method: 'POST',
    path: '/api/v1/audio/transcriptions',
    key: 'standard',
    body: {
      model: 'openai/whisper-large-v3',
      input_audio: { data: Buffer.alloc(4800, 1).toString('base64'), format: 'pcm' },
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
      language: 'en',
    },
    media: [['input_audio', 'data']],
  },
  {
    method: 'POST',
    path: '/api/v1/audio/transcriptions',
    key: 'standard',
    form: {
      fields: { model: 'openai/whisper-large-v3', response_format: 'verbose_json', 'timestamp_granularities[]': 'word', language: 'en' },
      files: [{ field: 'file', name: 'speech.pcm', type: 'application/octet-stream', bytes: PCM }],
    },
  },
  {
    method: 'POST',
    path: '/api/v1/files?provider=anthropic',
    key: 'standard',
    form: {
      fields: { purpose: 'user_data' },
      files: [{ field: 'file', name: 'notes.md', type: 'text/markdown', bytes: Buffer.from('# Notes\n\nSome *text*.\n') }],
    },
  },
  {
    method: 'POST',
    path: '/api/v1/files',
    key: 'standard',
    form: { fields: {}, files: [{ field: 'file', name: 'pic.png', type: 'image/png', bytes: png(8, 8) }] },
  },
  {
    method: 'POST',
    path: '/api/v1/videos',
    key: 'standard',
    body: {
      model: 'google/veo-3.1',
      prompt: 'p',
      frame_images: [{ type: 'image_url', image_url: { url: PNG_DATA }, frame_type: 'first_frame' }],
      input_references: [{ type: 'audio_url', audio_url: { url: 'data:audio/mpeg;base64,SUQz' } }],
    },
    media: [
      ['frame_images', 0, 'image_url', 'url'],
      ['input_references', 0, 'audio_url', 'url'],
    ],
  },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/start-end2video',
    key: 'standard',
    body: { model: 'videoq2-pro', images: [PNG_BASE64, PNG_DATA], payload: 'p' },
    media: [['images', 0], ['images', 1], ['payload']],
  },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/multiframe',
    key: 'standard',
    body: { model: 'videoq2-pro', start_image: PNG_DATA, image_settings: [{ key_image: PNG_BASE64, duration: 3 }] },
    media: [['start_image'], ['image_settings', 0, 'key_image']],
  },
  {
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: { model: 'openai/gpt-image-1', prompt: 'p', size: '1024x1024', input_references: [{ type: 'image_url', image_url: { url: PNG_DATA } }] },
    media: [['input_references', 0, 'image_url', 'url'], ['prompt']],
  },
  {
    method: 'POST',
    path: '/api/v1/rerank',
    key: 'standard',
    body: { model: 'cohere/rerank-v3.5', query: 'capital of France', documents: ['Paris', { text: 'Berlin' }], top_n: 1, provider: { order: ['cohere'] } },
  },
  { method: 'GET', path: '/api/v1/activity?date=2026-01-01', key: 'management' },
  { method: 'GET', path: '/api/v1/analytics/meta', key: 'management' },
  {
    method: 'POST',
    path: '/api/v1/analytics/query',
    key: 'management',
    body: {
      metrics: ['request_count', 'total_usage', 'avg_latency'],
      dimensions: ['model', 'provider'],
      filters: [{ field: 'model', operator: 'in', value: ['openai/gpt-4o-mini'], include_unset: true }],
      granularity: 'hour',
      group_limit: 5,
      limit: 100,
      order_by: { field: 'total_usage', direction: 'desc' },
      time_range: { start: '2026-01-01T00:00:00Z', end: '2026-01-20T00:00:00Z' },
    },
  },
  { method: 'GET', path: '/api/v1/benchmarks?task_type=search&include_run_config=true&search_surface=plugin&max_results=5', key: 'standard' },
  { method: 'GET', path: '/api/v1/classifications/task?window=7d', key: 'standard' },
  {
    method: 'GET',
    path: '/api/v1/datasets/app-rankings?sort=trending&category=coding&start_date=2025-06-01&end_date=2025-07-01&limit=10&offset=2',
    key: 'standard',
  },
  { method: 'GET', path: '/api/v1/datasets/rankings-daily?start_date=2025-12-01&period=week&modality=tool_calling', key: 'standard' },
  { method: 'GET', path: '/api/v1/datasets/session-cost?app_slug=hermes-agent&turn_range=1-turn&limit=5&offset=1', key: 'standard' },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/text2video',
    key: 'standard',
    body: { model: 'videoq2', prompt: 'p', duration: 5, resolution: '720p', seed: '3', callback_url: 'http://127.0.0.1:9/x' },
  },
  { method: 'POST', path: '/router/v1/video/ent/v2/img2video', key: 'standard', body: { model: 'videoq2-pro', images: [IMG], movement_amplitude: 'auto' } },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/multiframe',
    key: 'standard',
    body: { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, duration: 3 }, { key_image: IMG }] },
  },
  { method: 'POST', path: '/router/v1/video/ent/v2/start-end2video', key: 'standard', body: { model: 'videoq2-pro', images: [IMG, IMG] } },
  { method: 'POST', path: '/router/v1/video/ent/v2/reference2video', key: 'standard', body: { model: 'videoq2', images: [IMG], prompt: 'p' } },
  { method: 'POST', path: '/router/v1/video/ent/v2/template2video', key: 'standard', body: { template: 'hug', images: [IMG], prompt: 'p', seed: 1 } },
  {
    method: 'POST',
    path: '/api/v1/videos',
    key: 'standard',
    body: {
      model: 'google/veo-3.1',
      prompt: 'p',
      duration: 4,
      size: '1280x720',
      frame_images: [{ type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' }],
      callback_url: 'http://127.0.0.1:9/x',
    },
  },
  { method: 'GET', path: '/api/v1/videos/models' },
  { method: 'GET', path: '/api/v1/videos/123', key: 'standard' },
  { method: 'GET', path: '/api/v1/videos/123/content?index=0', key: 'standard' },
  { method: 'GET', path: '/router/v1/video/ent/v2/tasks?states=success&pager.pagesz=5', key: 'standard' },
  { method: 'GET', path: '/router/v1/video/ent/v2/tasks/123/creations', key: 'standard' },
  { method: 'POST', path: '/router/v1/video/ent/v2/tasks/123/cancel', key: 'standard', body: {} },
  { method: 'POST', path: '/_emulator/api/accounts', body: { name: 'a', credits_usd: 5 } },
  { method: 'PATCH', path: '/_emulator/api/accounts/{account}', body: { ignored_providers: ['openai'], zdr_only: false } },
  { method: 'PUT', path: '/_emulator/api/accounts/{account}/credits', body: { balance_usd: 50 } },
  { method: 'POST', path: '/_emulator/api/accounts/{account}/keys', body: { kind: 'standard', limit: 1, expires_at: '2030-01-01T00:00:00Z' } },
  { method: 'POST', path: '/_emulator/api/clock/advance', body: { ms: 1000 } },
  { method: 'POST', path: '/_emulator/api/clock/set', body: { to: '2026-06-01T00:00:00Z' } },
  { method: 'POST', path: '/_emulator/api/faults', body: { match: { operation: 'models.count' }, action: { status: 503 }, remaining: 1, probability: 0.5 } },
  { method: 'PUT', path: '/_emulator/api/rate-limits', body: { keyPerMinute: 100 } },
  { method: 'PUT', path: '/_emulator/api/video/settings', body: { failure_rate: 0.1, queueing_ms: 10 } },
  { method: 'GET', path: '/_emulator/api/journal?status=200&limit=5&since=2026-01-01T00:00:00Z' },
  { method: 'POST', path: '/_emulator/api/catalog/models', body: { models: [] } },
  { method: 'POST', path: '/_emulator/api/import', body: { format: 'model-gateway-emulator/state', version: 1, tables: {} } },
  { method: 'POST', path: '/_emulator/api/fixtures/seed', body: { preset: 'empty' } },
  {
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      n: 2,
      max_tokens: 200,
      response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/chat/completions',
    key: 'standard',
    body: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'weather please' }], stream: true, tools: [CHAT_TOOL], tool_choice: 'required' },
  },
  { method: 'POST', path: '/api/v1/completions', key: 'standard', body: { model: CHAT_MODEL, prompt: 'Once upon a time', stream: true, n: 3 } },
  {
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    body: {
      model: CHAT_MODEL,
      instructions: 'Be brief.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'weather in Paris?' },
            { type: 'input_image', image_url: IMG, detail: 'low' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"clear"}' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      text: { format: { type: 'json_schema', name: 's', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
      max_output_tokens: 200,
    },
  },
  {
    method: 'POST',
    path: '/api/v1/responses',
    key: 'standard',
    body: { model: 'openai/o4-mini', input: 'why?', stream: true, reasoning: { effort: 'low', summary: 'auto' }, tool_choice: 'auto' },
  },
  {
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 200,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather in Paris?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'clear' }] }] },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      thinking: { type: 'enabled', budget_tokens: 64 },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/messages',
    key: 'standard',
    body: {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'weather?' }],
      stream: true,
      stop_sequences: ['.'],
      tool_choice: { type: 'auto' },
    },
  },
  {
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/chat-fixtures',
    body: { match: { last_user_regex: 'order #\\d+' }, answer: { content: 'fixed' }, times: 2 },
  },
  {
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/chat-fixtures/test',
    body: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'order #12' }] },
  },
]

/** Numbers that break naive bounds. */
const hugeCount = fc.constantFrom(0, 1, 3, 1e3, 1e4, 1e7, 1e9, 1e15, 2 ** 53, -1, 0.5)

/** Patterns of every cost: nested counted repetitions, backtracking traps, what RE2 or ECMA-262 refuse. */
const hostilePattern = fc.constantFrom(
  '^((a{1000}){1000}){1000}$',
  '^(a+)+$',
  '(a|aa)*b',
  '(x+x+)+y',
  '(a)\\1',
  '(?=a)b',
  '(?<=a)b',
  '[',
  '(',
  'a{0,100000000}',
  '\\p{L}{5000}',
  '.{0,1000}.{0,1000}.{0,1000}',
  '(?i)HELLO',
  '',
)

const bigEnum = Array.from({ length: 60_000 }, (_, i) => `v${i}`)

/** JSON Schemas meant to stall or overflow a generator: huge bounds, enums, cycles, contradictions. */
const hostileSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ type: fc.constant('string'), minLength: hugeCount, maxLength: hugeCount }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('string'), pattern: hostilePattern }),
    fc.record(
      { type: fc.constant('array'), minItems: hugeCount, maxItems: hugeCount, uniqueItems: fc.boolean(), items: tie('schema') },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('object'),
        minProperties: hugeCount,
        maxProperties: hugeCount,
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'enum', 'required'), tie('schema'), { maxKeys: 3 }),
        required: fc.array(fc.constantFrom('a', 'b', 'x'), { maxLength: 3 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      enum: fc.oneof(fc.constant([]), fc.constant(bigEnum), fc.constant(['a '.repeat(300_000)]), fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 })),
    }),
    fc.record({
      $ref: fc.constantFrom('#', '#/$defs/n', '#/nowhere', 'http://127.0.0.1:9/x.json'),
      $defs: fc.constant({ n: { type: 'object', required: ['next'], properties: { next: { $ref: '#/$defs/n' } } } }),
    }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.constantFrom(true, false, {}, { not: {} }, { type: 'integer', minimum: 5, maximum: 1 }, { const: 'x'.repeat(100_000) }),
  ),
})).schema

const weird = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308, -1e308, 0.5),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '💥'.repeat(50), 'x'.repeat(5000), '../../etc/passwd', '%00', '{"a":'),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: 'small' }, fc.constant(1), fc.array(tie('deep'), { maxLength: 1 })) })).deep,
)

/** What chat requests and fixture rules are given: hostile schemas and regexes, every `n`, streams. */
const chatMutation = fc.oneof(
  fc.record({ kind: fc.constant('schema' as const), schema: hostileSchema, where: fc.constantFrom('format' as const, 'tool' as const) }),
  fc.record({
    kind: fc.constant('regex' as const),
    pattern: hostilePattern,
    field: fc.constantFrom('last_user_regex', 'system_regex'),
    text: fc.constantFrom(`${'a'.repeat(30)}!`, 'x'.repeat(100_000)),
  }),
  fc.record({
    kind: fc.constant('choices' as const),
    n: fc.integer({ min: 1, max: 8 }),
    stream: fc.boolean(),
    maxTokens: fc.constantFrom(undefined, 1, 50, 100_000),
  }),
)

/**
 * Inline media past every media field's bound (an image's 50 MB is 67 MB of base64): a placeholder in the
 * body, whose characters are sent from one shared buffer rather than made into a JSON string each time.
 */
const OVERSIZE = '\u0000oversize'
const OVERSIZE_CHARS = 72 * 1024 * 1024
let oversize: Buffer | undefined

/** What a media field is given instead of its inline file. */
const mediaValue = fc.constantFrom(
  '',
  'data:',
  'data:image/png;base64,',
  `data:image/gif;base64,${PNG_BASE64}`,
  `data:image/png;base64,${PNG_BASE64.slice(0, 21)}`,
  `data:image/png;base64,${PNG_BASE64}!!`,
  `data:${'a'.repeat(5000)}/png;base64,AAAA`,
  `data:image/png;base64,${'\u00e9'.repeat(20_000)}`,
  '💥'.repeat(20_000),
  'A'.repeat(3 * 1024 * 1024),
  'https://example.com/a.png',
  'http://[::1',
  OVERSIZE,
)

/** How a form is broken. */
const formBreakage = fc.constantFrom(
  'no file',
  'two files',
  'file as a field',
  'field over 64 KB',
  'too many fields',
  'field named constructor',
  'empty file',
  'binary file',
  'file name',
  'cut short',
  'other boundary',
  'declared 1 GiB',
  'file over 25 MB',
)

/** A form's bytes from its fields and files, broken as `how` says. */
function formBody(
  form: { fields: Record<string, unknown>; files: FilePart[] },
  how: string | undefined,
  pick: number,
): { payload: Buffer; contentType: string; declared?: number } {
  const boundary = 'fuzz-form-boundary'
  const fields: Array<[string, string]> = Object.entries(form.fields).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
  ])
  let files = form.files
  if (how === 'no file') files = []
  else if (how === 'two files') files = [...files, ...files]
  else if (how === 'file as a field') {
    fields.push(...files.map((f): [string, string] => [f.field, f.bytes.toString('latin1')]))
    files = []
  } else if (how === 'field over 64 KB') fields.push(['language', 'x'.repeat(65 * 1024)])
  else if (how === 'too many fields') fields.push(...Array.from({ length: 40 }, (_, i): [string, string] => [`f${i}`, 'x']))
  else if (how === 'field named constructor') fields.push(['constructor', 'x'])
  else if (how === 'empty file') files = files.map((f) => ({ ...f, bytes: Buffer.alloc(0) }))
  else if (how === 'binary file') files = files.map((f) => ({ ...f, name: 'a.bin', bytes: Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0x80]) }))
  else if (how === 'file name') files = files.map((f) => ({ ...f, name: ['../../etc/passwd', 'x'.repeat(300), 'é💥\u202e.txt', '', 'a"b;c.txt'][pick % 5]! }))
  else if (how === 'file over 25 MB') files = files.map((f) => ({ ...f, bytes: Buffer.alloc(25 * 1024 * 1024 + 1, 0x61) }))
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((f) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]
  let payload = Buffer.concat(parts)
  if (how === 'cut short') payload = payload.subarray(0, pick % payload.length)
  const contentType = `multipart/form-data; boundary=${how === 'other boundary' ? 'another' : boundary}`
  return { payload, contentType, ...(how === 'declared 1 GiB' && { declared: 1024 * 1024 * 1024 }) }
}

/** Sets the value at `path` in `body`, where the path leads somewhere. */
function setAt(body: unknown, path: ReadonlyArray<string | number>, value: unknown): void {
  let at = body as Record<string | number, unknown> | undefined
  for (const segment of path.slice(0, -1)) {
    const next = at?.[segment]
    if (next === null || typeof next !== 'object') return
    at = next as Record<string | number, unknown>
  }
  if (at && typeof at === 'object') at[path.at(-1)!] = value
}

/** One mutation of a request. */
const mutation = fc.oneof(
  chatMutation,
  fc.record({ kind: fc.constant('replace' as const), value: weird, pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('extra' as const), name: fc.string({ maxLength: 12 }), value: weird }),
  fc.record({ kind: fc.constant('body' as const), value: weird }),
  fc.record({ kind: fc.constant('raw' as const), text: fc.constantFrom('{', '[1,2', 'null', '"text"', '{"a":1}}', '\u0000', '<xml/>', '') }),
  fc.record({
    kind: fc.constant('type' as const),
    type: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'image/png',
    ),
  }),
  fc.record({ kind: fc.constant('segment' as const), value: fc.constantFrom('%', '%zz', '..', '%2e%2e', 'x'.repeat(600), '💥', '%00', ' ', '{}') }),
  fc.record({
    kind: fc.constant('spelling' as const),
    how: fc.constantFrom('double', 'encode', 'dot', 'dotdot', 'slash', 'backslash'),
    pick: fc.nat(),
    lower: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('nest' as const), depth: fc.constantFrom(10, 63, 64, 65, 200, 5_000, 50_000), pick: fc.nat(), brace: fc.boolean() }),
  fc.record({
    kind: fc.constant('query' as const),
    value: fc.constantFrom('limit=-1', 'limit=abc', 'offset=1e400', 'date=%', 'a[b]=c', '&&&', 'region=', 'states=zzz', '%%%', 'include_disabled=2'),
  }),
  fc.record({ kind: fc.constant('media' as const), value: mediaValue, pick: fc.nat() }),
  fc.record({ kind: fc.constant('form' as const), how: formBreakage, pick: fc.nat() }),
)

/** Any operation, or (as often) one of chat's, which has the most ways to cost time and memory, or one that takes media or a form. */
const CHAT_OPERATIONS = OPERATIONS.flatMap((op, i) => (op.path.includes('completions') || op.path.includes('chat-fixtures') ? [i] : []))
const MEDIA_OPERATIONS = OPERATIONS.flatMap((op, i) => (op.form || op.media ? [i] : []))
const operationIndex = fc.oneof(fc.nat(OPERATIONS.length - 1), fc.constantFrom(...CHAT_OPERATIONS), fc.constantFrom(...MEDIA_OPERATIONS))

/** The longest a heartbeat may wait. */
const HEARTBEAT_MS = 1000

export interface FuzzResult {
  requests: number
  byStatus: Record<string, number>
  failures: string[]
}

/** Another spelling of the same path, which a lenient router could fold into it. */
function respell(url: string, how: string, pick: number, lower: boolean): string {
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  const rest = query === -1 ? '' : url.slice(query)
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index)
  const at = slashes[pick % slashes.length]!
  const inner = slashes.length > 1 ? slashes[1 + (pick % (slashes.length - 1))]! : at
  let spelt = path
  if (how === 'double') spelt = `${path.slice(0, at)}/${path.slice(at)}`
  else if (how === 'dot') spelt = `${path.slice(0, at)}/.${path.slice(at)}`
  else if (how === 'dotdot') spelt = `${path.slice(0, at)}/x/..${path.slice(at)}`
  else if (how === 'slash') spelt = `${path.slice(0, inner)}%2${lower ? 'f' : 'F'}${path.slice(inner + 1)}`
  else if (how === 'backslash') spelt = `${path.slice(0, inner)}\\${path.slice(inner + 1)}`
  else {
    const plain = [...path.matchAll(/[A-Za-z0-9_.~-]/g)].map((m) => m.index)
    if (plain.length === 0) return url
    const i = plain[pick % plain.length]!
    const hex = path.charCodeAt(i).toString(16)
    spelt = `${path.slice(0, i)}%${lower ? hex : hex.toUpperCase()}${path.slice(i + 1)}`
  }
  return spelt + rest
}

/** `body` as JSON text with one field (or the whole body) nested `depth` levels deep. */
function nestedText(body: unknown, depth: number, pick: number, brace: boolean): string {
  const deep = brace ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  if (keys.length === 0) return deep
  const key = keys[pick % keys.length]!
  return JSON.stringify({ ...(body as Record<string, unknown>), [key]: '\u0000deep' }).replace('"\\u0000deep"', deep)
}

interface Answer {
  statusCode: number
  body: string
  headers: Record<string, string | string[] | number | undefined>
  json(): unknown
}

/**
 * One request over a real socket, its path exactly as given. A body of several pieces is written one
 * after the other; a body the server answers before it has read all of it is still sent whole.
 */
function overSocket(
  emu: RunningEmulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: string | Buffer | Buffer[] | undefined,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A socket's request line carries no space or non-ASCII character: those go percent-encoded, as a client sends them.
    const line = path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c))
    const req = httpRequest({ host: '127.0.0.1', port: emu.port, method, path: line, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        resolve({ statusCode: res.statusCode ?? 0, body, headers: res.headers, json: () => JSON.parse(body) })
      })
    })
    req.on('error', reject)
    if (Array.isArray(payload)) {
      for (const piece of payload) req.write(piece)
      req.end()
    } else req.end(payload)
  })
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

type ChatMutation =
  | { kind: 'schema'; schema: unknown; where: 'format' | 'tool' }
  | { kind: 'regex'; pattern: string; field: string; text: string }
  | { kind: 'choices'; n: number; stream: boolean; maxTokens: number | undefined }

/** A chat body (or a fixture rule) given a hostile schema, regex, `n` or stream. */
function applyChatMutation(body: Record<string, unknown>, m: ChatMutation): void {
  if (m.kind === 'schema') {
    if (m.where === 'format') body.response_format = { type: 'json_schema', json_schema: { name: 's', schema: m.schema } }
    else body.tools = [{ type: 'function', function: { name: 'get_weather', parameters: m.schema } }]
  } else if (m.kind === 'regex') {
    // A rule with the pattern, or a request whose messages meet one.
    if (isRecord(body.match)) body.match = { [m.field]: m.pattern }
    if (Array.isArray(body.messages))
      body.messages = [
        { role: 'system', content: m.text },
        { role: 'user', content: m.text },
      ]
  } else if ('messages' in body || 'prompt' in body) {
    body.n = m.n
    body.stream = m.stream
    if (m.maxTokens === undefined) delete body.max_tokens
    else body.max_tokens = m.maxTokens
  }
}

function substitute(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name)
}

export async function fuzz(runs: number, seed: number): Promise<FuzzResult> {
  // Listening (on loopback), so respelt paths go over a real socket: an injected request would have
  // its dot segments resolved on the way in.
  const emu: RunningEmulator = await startEmulator({
    db: ':memory:',
    clock: 'manual',
    seed: 1,
    callbackTimeoutMs: 50,
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
  })
  const account = emu.ctx.services.accounts.list()[0]!.id
  const hash = (await emu.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${emu.keys.management}` } })).json().data[0].hash as string
  const guardrail = (
    await emu.app.inject({ method: 'POST', url: '/api/v1/guardrails', headers: { authorization: `Bearer ${emu.keys.management}` }, payload: { name: 'fuzz' } })
  ).json().data.id as string
  const ids = { account, hash, guardrail }
  const result: FuzzResult = { requests: 0, byStatus: {}, failures: [] }

  // The heartbeat beside every attack: a request that waits more than a second means a stall, named by
  // the fuzzed requests that were under way meanwhile.
  let fuzzing = true
  let underWay = ''
  const heartbeat = (async () => {
    while (fuzzing) {
      const started = performance.now()
      const during = new Set([underWay])
      const res = await overSocket(emu, 'GET', '/_emulator/api/health', {}, undefined).catch((error: unknown) => ({ statusCode: 0, body: String(error) }))
      during.add(underWay)
      const ms = performance.now() - started
      if (res.statusCode !== 200 || ms > HEARTBEAT_MS)
        result.failures.push(`heartbeat: ${res.statusCode} after ${Math.round(ms)} ms (a stall) during ${[...during].join(' | ')}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()

  await fc
    .assert(
      fc.asyncProperty(operationIndex, fc.array(fc.oneof(mutation, chatMutation), { minLength: 1, maxLength: 3 }), async (index, mutations) => {
        const op = OPERATIONS[index]!
        let path = substitute(op.path, ids)
        // A form's text fields are its body to the mutations.
        let body: unknown = op.form ? { ...op.form.fields } : op.body === undefined ? undefined : JSON.parse(substitute(JSON.stringify(op.body), ids))
        let raw: string | undefined
        let contentType = 'application/json'
        let breakage: { how: string; pick: number } | undefined
        for (const m of mutations) {
          const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
          if (m.kind === 'replace' && keys.length > 0) (body as Record<string, unknown>)[keys[m.pick % keys.length]!] = m.value
          else if (m.kind === 'remove' && keys.length > 0) delete (body as Record<string, unknown>)[keys[m.pick % keys.length]!]
          else if (m.kind === 'extra' && body && typeof body === 'object' && !Array.isArray(body)) (body as Record<string, unknown>)[m.name] = m.value
          else if (m.kind === 'body') body = m.value
          else if (m.kind === 'raw') raw = m.text
          else if (m.kind === 'type') contentType = m.type
          else if (m.kind === 'segment') path = path.replace(/\/[^/?]+(\?|$)/, `/${m.value}$1`)
          else if (m.kind === 'spelling') path = respell(path, m.how, m.pick, m.lower)
          else if (m.kind === 'nest') raw = nestedText(body, m.depth, m.pick, m.brace)
          else if (m.kind === 'query') path = `${path}${path.includes('?') ? '&' : '?'}${m.value}`
          else if ((m.kind === 'schema' || m.kind === 'regex' || m.kind === 'choices') && isRecord(body)) applyChatMutation(body, m)
          else if (m.kind === 'media' && op.media && !op.form) setAt(body, op.media[m.pick % op.media.length]!, m.value)
          else if (m.kind === 'form' && op.form) breakage = { how: m.how, pick: m.pick }
        }
        const headers: Record<string, string> = { ...(op.key && { authorization: `Bearer ${emu.keys[op.key]}` }) }
        let payload: string | Buffer | Buffer[] | undefined = raw ?? (body === undefined ? undefined : JSON.stringify(body))
        let overSocketOnly = false
        if (op.form && raw === undefined && isRecord(body)) {
          // The form as a client sends it, unless another content type was asked for (then the form's bytes go under it).
          const form = formBody({ fields: body, files: op.form.files }, breakage?.how, breakage?.pick ?? 0)
          payload = form.payload
          if (!mutations.some((m) => m.kind === 'type')) contentType = form.contentType
          if (form.declared !== undefined) {
            // Declared longer than sent: the connection is not reused for another request after the answer.
            headers['content-length'] = String(form.declared)
            headers.connection = 'close'
            overSocketOnly = true
          }
        } else if (typeof payload === 'string' && payload.includes(JSON.stringify(OVERSIZE).slice(1, -1))) {
          // Past every media bound: the placeholder's characters come from one shared buffer.
          oversize ??= Buffer.alloc(OVERSIZE_CHARS, 0x41)
          const [before, after] = payload.split(JSON.stringify(OVERSIZE).slice(1, -1), 2) as [string, string]
          payload = [Buffer.from(`${before}data:image/png;base64,`), oversize, Buffer.from(after)]
          headers['content-length'] = String(payload.reduce((n, piece) => n + piece.length, 0))
          overSocketOnly = true
        }
        if (payload !== undefined) headers['content-type'] = contentType
        underWay = `${op.method} ${path} ${mutations.map((m) => m.kind + ('how' in m ? ` ${String(m.how)}` : '')).join(', ')}`
        const spelt = mutations.some((m) => m.kind === 'spelling')
        const res =
          spelt || overSocketOnly
            ? await overSocket(emu, op.method, path, headers, payload)
            : await emu.app.inject({ method: op.method, url: path, headers, ...(payload !== undefined && { payload: payload as string | Buffer }) })
        result.requests++
        result.byStatus[res.statusCode] = (result.byStatus[res.statusCode] ?? 0) + 1
        const shown = payload === undefined ? '' : Array.isArray(payload) ? payload[0]!.toString('latin1') : payload.toString('latin1')
        const where = `${op.method} ${path} ${shown.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`
        // A 5xx that a fault rule asked for (the fuzzer creates some) is the emulator doing its job.
        // (The gateway's body names the rule; the router's keeps the vendor's words, so the header does.)
        const injected = res.body.includes('"emulator_fault"') || String(res.headers['x-emulator-detail'] ?? '').startsWith('answered by fault rule')
        if (res.statusCode >= 500 && !injected) {
          result.failures.push(where)
          return false
        }
        // Another spelling of a path never reaches a route: a 400 (or a 404), in either envelope.
        const respelt = path.split('?')[0] !== substitute(op.path, ids).split('?')[0] && mutations.some((m) => m.kind === 'spelling')
        if (respelt && mutations.every((m) => m.kind !== 'segment') && res.statusCode !== 400 && res.statusCode !== 404) {
          result.failures.push(`respelt path served: ${where}`)
          return false
        }
        if (res.statusCode >= 400) {
          const parsed = res.json() as Record<string, unknown>
          const router = typeof parsed.code === 'number' && typeof parsed.reason === 'string' && typeof parsed.message === 'string'
          const main =
            typeof (parsed.error as { code?: unknown } | undefined)?.code === 'number' && typeof (parsed.error as { message?: unknown }).message === 'string'
          // The Messages API answers in Anthropic's envelope.
          const anthropic =
            parsed.type === 'error' &&
            typeof (parsed.error as { type?: unknown } | undefined)?.type === 'string' &&
            typeof (parsed.error as { message?: unknown }).message === 'string'
          const ok = respelt ? router || main || anthropic : path.startsWith('/router/') ? router : path.startsWith('/api/v1/messages') ? anthropic : main
          if (!ok) {
            result.failures.push(`bad envelope: ${where}`)
            return false
          }
        }
        return true
      }),
      { numRuns: runs, seed, endOnFailure: true },
    )
    .catch((error: unknown) => {
      if (result.failures.length === 0) result.failures.push(`fuzzer stopped: ${String(error).slice(0, 1500)}`)
    })

  fuzzing = false
  await heartbeat
  const integrity = emu.ctx.db.pragma('integrity_check', { simple: true })
  if (integrity !== 'ok') result.failures.push(`integrity_check: ${String(integrity)}`)
  await emu.close()
  return result
}
