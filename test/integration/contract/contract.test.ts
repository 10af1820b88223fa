// The contract test: for every operation the emulator serves under /api/v1 and /router/v1, valid and
// invalid requests (no key, the wrong kind of key, a malformed body, a bad enum, an unknown id, limits,
// 402, 429), each answer checked against the real gateway's OpenAPI document (status declared, media
// type declared, body valid against the schema) or, for the video router, against the vendor's
// documented shapes, reasons and messages. What differs on purpose is listed in DELIBERATE, and in the
// fidelity table of docs/fidelity.md; anything else that differs fails.
import { describe, expect, it } from 'vitest'
import type { EmulatorOptions } from '../../../src/emulator/index.ts'
import { dataUri, png } from '../../helpers/images.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { audioJson, form, tone, wav } from '../audio/audio-helpers.ts'
import { componentProblems, gatewayProblems, hasRealDocument, realEnum, realOperations, vendorProblems, type Answer } from './shapes.ts'

const MODEL = 'openai/text-embedding-3-small'
const CHAT_MODEL = 'openai/gpt-4o-mini'
const MESSAGES_MODEL = 'anthropic/claude-sonnet-4'
const RERANK_MODEL = 'cohere/rerank-v3.5'
const ROUTER = '/router/v1/video/ent/v2'
const IMG = dataUri(png(64, 36), 'image/png')
const CHARGE = { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }

type Real = { gateway: [method: string, path: string] } | { vendor: 'create' | 'query' | 'cancel' | 'list' } | { own: string }

interface Case {
  /** The emulator's operation id (its OpenAPI document's operationId). */
  operation: string
  name: string
  status: number
  options?: EmulatorOptions
  run: (emu: TestEmulator) => Promise<Answer>
}

const KEYS_LIST: Real = { gateway: ['get', '/keys'] }

/** Where each operation's answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
const REAL: Record<string, Real> = {
  'keys.list': KEYS_LIST,
  'keys.update': { gateway: ['patch', '/keys/{hash}'] },
  'keys.current': { gateway: ['get', '/key'] },
  'keys.create': { gateway: ['post', '/keys'] },
  'keys.get': { gateway: ['get', '/keys/{hash}'] },
  'keys.delete': { gateway: ['delete', '/keys/{hash}'] },
  'oauth.code.create': { gateway: ['post', '/auth/keys/code'] },
  'oauth.code.exchange': { gateway: ['post', '/auth/keys'] },
  'models.list': { gateway: ['get', '/models'] },
  'models.count': { gateway: ['get', '/models/count'] },
  'models.user': { gateway: ['get', '/models/user'] },
  'models.endpoints': { gateway: ['get', '/models/{author}/{slug}/endpoints'] },
  'models.get': { gateway: ['get', '/model/{author}/{slug}'] },
  'embeddings.models': { gateway: ['get', '/embeddings/models'] },
  'providers.list': { gateway: ['get', '/providers'] },
  'endpoints.zdr': { gateway: ['get', '/endpoints/zdr'] },
  'guardrails.list': { gateway: ['get', '/guardrails'] },
  'guardrails.create': { gateway: ['post', '/guardrails'] },
  'guardrails.get': { gateway: ['get', '/guardrails/{id}'] },
  'guardrails.update': { gateway: ['patch', '/guardrails/{id}'] },
  'guardrails.delete': { gateway: ['delete', '/guardrails/{id}'] },
  'guardrails.assignments.keys.listAll': { gateway: ['get', '/guardrails/assignments/keys'] },
  'guardrails.assignments.members.listAll': { gateway: ['get', '/guardrails/assignments/members'] },
  'guardrails.assignments.keys.list': { gateway: ['get', '/guardrails/{id}/assignments/keys'] },
  'guardrails.assignments.keys.assign': { gateway: ['post', '/guardrails/{id}/assignments/keys'] },
  'guardrails.assignments.keys.unassign': { gateway: ['post', '/guardrails/{id}/assignments/keys/remove'] },
  'guardrails.assignments.members.list': { gateway: ['get', '/guardrails/{id}/assignments/members'] },
  'guardrails.assignments.members.assign': { gateway: ['post', '/guardrails/{id}/assignments/members'] },
  'guardrails.assignments.members.unassign': { gateway: ['post', '/guardrails/{id}/assignments/members/remove'] },
  'embeddings.create': { gateway: ['post', '/embeddings'] },
  'images.create': { gateway: ['post', '/images'] },
  'images.generations': { own: "OpenAI's image generation (the path the openai client's images.generate posts), absent from the real document" },
  'images.models': { gateway: ['get', '/images/models'] },
  'images.models.endpoints': { gateway: ['get', '/images/models/{author}/{slug}/endpoints'] },
  'audio.speech': { gateway: ['post', '/audio/speech'] },
  'audio.transcriptions': { gateway: ['post', '/audio/transcriptions'] },
  'rerank.create': { gateway: ['post', '/rerank'] },
  'chat.create': { gateway: ['post', '/chat/completions'] },
  'messages.create': { gateway: ['post', '/messages'] },
  'generation.get': { gateway: ['get', '/generation'] },
  'generation.content': { gateway: ['get', '/generation/content'] },
  'generation.feedback': { gateway: ['post', '/generation/feedback'] },
  'organization.members.list': { gateway: ['get', '/organization/members'] },
  'scim.groups.list': { gateway: ['get', '/scim/groups'] },
  'scim.mappings.list': { gateway: ['get', '/scim/group-mappings'] },
  'scim.mappings.create': { gateway: ['post', '/scim/group-mappings'] },
  'scim.mappings.get': { gateway: ['get', '/scim/group-mappings/{id}'] },
  'scim.mappings.update': { gateway: ['patch', '/scim/group-mappings/{id}'] },
  'scim.mappings.delete': { gateway: ['delete', '/scim/group-mappings/{id}'] },
  'files.list': { gateway: ['get', '/files'] },
  'files.upload': { gateway: ['post', '/files'] },
  'files.get': { gateway: ['get', '/files/{file_id}'] },
  'files.delete': { gateway: ['delete', '/files/{file_id}'] },
  'files.content': { gateway: ['get', '/files/{file_id}/content'] },
  'completions.create': { own: 'the legacy text completion, absent from the real document; the AI SDK provider and openai still call it' },
  'responses.create': { gateway: ['post', '/responses'] },
  'activity.list': { gateway: ['get', '/activity'] },
  'analytics.meta': { gateway: ['get', '/analytics/meta'] },
  'analytics.query': { gateway: ['post', '/analytics/query'] },
  'benchmarks.list': { gateway: ['get', '/benchmarks'] },
  'classifications.task': { gateway: ['get', '/classifications/task'] },
  'datasets.appRankings': { gateway: ['get', '/datasets/app-rankings'] },
  'datasets.rankingsDaily': { gateway: ['get', '/datasets/rankings-daily'] },
  'datasets.sessionCost': { gateway: ['get', '/datasets/session-cost'] },
  'credits.get': { gateway: ['get', '/credits'] },
  'credits.crypto': { gateway: ['post', '/credits/coinbase'] },
  'credits.coinbase': { gateway: ['post', '/credits/coinbase'] },
  'videos.create': { gateway: ['post', '/videos'] },
  'videos.get': { gateway: ['get', '/videos/{jobId}'] },
  'videos.content': { gateway: ['get', '/videos/{jobId}/content'] },
  'videos.models': { gateway: ['get', '/videos/models'] },
  'video.multiframe': { vendor: 'create' },
  'video.text2video': { vendor: 'create' },
  'video.img2video': { vendor: 'create' },
  'video.reference2video': { vendor: 'create' },
  'video.startend2video': { vendor: 'create' },
  'video.template2video': { vendor: 'create' },
  'video.tasks.get': { vendor: 'query' },
  'video.tasks.cancel': { vendor: 'cancel' },
  'video.tasks.list': { vendor: 'list' },
  'video.templates': { own: 'the template list the create operations accept (the vendor documents it on a web page)' },
  'video.media': { own: "the files a finished task links to (the vendor's are signed storage URLs)" },
  'presets.list': { gateway: ['get', '/presets'] },
  'presets.get': { gateway: ['get', '/presets/{slug}'] },
  'presets.chat.create': { gateway: ['post', '/presets/{slug}/chat/completions'] },
  'presets.messages.create': { gateway: ['post', '/presets/{slug}/messages'] },
  'presets.responses.create': { gateway: ['post', '/presets/{slug}/responses'] },
  'presets.versions.list': { gateway: ['get', '/presets/{slug}/versions'] },
  'presets.versions.get': { gateway: ['get', '/presets/{slug}/versions/{version}'] },
  'workspaces.list': { gateway: ['get', '/workspaces'] },
  'workspaces.create': { gateway: ['post', '/workspaces'] },
  'workspaces.get': { gateway: ['get', '/workspaces/{id}'] },
  'workspaces.update': { gateway: ['patch', '/workspaces/{id}'] },
  'workspaces.delete': { gateway: ['delete', '/workspaces/{id}'] },
  'workspaces.budgets.list': { gateway: ['get', '/workspaces/{id}/budgets'] },
  'workspaces.budgets.get': { gateway: ['get', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.budgets.set': { gateway: ['put', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.budgets.delete': { gateway: ['delete', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.members.list': { gateway: ['get', '/workspaces/{id}/members'] },
  'workspaces.members.add': { gateway: ['post', '/workspaces/{id}/members/add'] },
  'workspaces.members.remove': { gateway: ['post', '/workspaces/{id}/members/remove'] },
  'byok.list': { gateway: ['get', '/byok'] },
  'byok.create': { gateway: ['post', '/byok'] },
  'byok.get': { gateway: ['get', '/byok/{id}'] },
  'byok.update': { gateway: ['patch', '/byok/{id}'] },
  'byok.delete': { gateway: ['delete', '/byok/{id}'] },
  'observability.destinations.list': { gateway: ['get', '/observability/destinations'] },
  'observability.destinations.create': { gateway: ['post', '/observability/destinations'] },
  'observability.destinations.get': { gateway: ['get', '/observability/destinations/{id}'] },
  'observability.destinations.update': { gateway: ['patch', '/observability/destinations/{id}'] },
  'observability.destinations.delete': { gateway: ['delete', '/observability/destinations/{id}'] },
}

/**
 * Answers that differ from the real documents on purpose, by `operation status`: the spec says so, or
 * the real service has no such answer. Each is a row of the fidelity table in docs/fidelity.md.
 */
const DELIBERATE: Record<string, string> = {
  'byok.create 404':
    "a workspace_id that is not one of the account's: the document declares no 404 here; every workspace-scoped area answers the same 404 naming workspace_id",
  'observability.destinations.create 404':
    "a workspace_id that is not one of the account's: the document declares no 404 here; every workspace-scoped area answers the same 404 naming workspace_id",
  'workspaces.list 400': 'a bad offset or limit: the document declares no 400 here; the emulator names the parameter rather than ignoring it',
  'workspaces.members.list 400': 'a bad offset or limit: the document declares no 400 here; the emulator names the parameter rather than ignoring it',
  'credits.crypto 200': 'the spec creates a crypto charge; the real endpoint is deprecated and answers 410 (the --crypto-charges gone setting)',
  'credits.coinbase 200': 'the same charge under the processor-named path',
  'credits.crypto 401': 'the spec lists 401 for a charge without a key; the deprecated real endpoint answers 410 to everyone',
  'credits.crypto 400': 'the spec validates the charge (amount, sender, chain_id); the deprecated real endpoint answers 410',
  'video.startend2video 402': 'CreditInsufficient is a 400 in the vendor table; 402 was observed, and is the --video-credit-status 402 setting',
  'embeddings.create 403': 'a key over its limit: the docs say 402 (the default); 403 "Key limit exceeded" is observed (--key-limit-status 403)',
  'audio.transcriptions 413':
    'an upload over 25 MB: the document names the 25 MB limit but declares no 413 here; the gateway answers PayloadTooLargeResponse elsewhere, and @openrouter/sdk 1.3 maps a 413 for this operation',
  'keys.list 403': 'a standard key on a management operation: the spec says 401 (the default); the real service answers 403 (--wrong-key-kind-status 403)',
  'messages.create 402':
    "no credits: the document declares no 402 for /messages; the gateway's 402, in Anthropic's envelope as billing_error (an enum value the document lists)",
}

const auth = (key?: string) => (key ? { authorization: `Bearer ${key}` } : {})
const get = (emu: TestEmulator, url: string, key?: string) => emu.get(url, key)
const send = (emu: TestEmulator, method: 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, key?: string) => emu.send(method, url, body, key)
const malformed = (emu: TestEmulator, method: 'POST' | 'PATCH', url: string, key?: string) =>
  emu.request({ method, url, headers: { ...auth(key), 'content-type': 'application/json' }, payload: '{"name": ' })

async function guardrail(emu: TestEmulator): Promise<string> {
  return (await send(emu, 'POST', '/api/v1/guardrails', { name: 'contract' }, emu.keys.management)).body.data.id
}

async function firstKey(emu: TestEmulator): Promise<{ hash: string; creator_user_id: string }> {
  return (await get(emu, '/api/v1/keys', emu.keys.management)).body.data[0]
}

/** A preset of the default account (slug `contract`), made from a Responses body. */
async function preset(emu: TestEmulator): Promise<string> {
  await send(emu, 'POST', '/api/v1/presets/contract/responses', { model: CHAT_MODEL, instructions: 'Be brief.' }, emu.keys.management)
  return 'contract'
}

async function brokeAccountKey(emu: TestEmulator): Promise<string> {
  return (await send(emu, 'POST', '/_emulator/api/accounts', {})).body.data.standard_key
}

const NO_UUID = '00000000-0000-4000-8000-000000000000'

/** The default account's id and workspace. */
async function defaultAccount(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await get(emu, '/_emulator/api/accounts')).body.data[0]
}

/** A SCIM group mapping of the default account's first group to its workspace. */
async function scimMapping(emu: TestEmulator): Promise<string> {
  const group = (await get(emu, '/api/v1/scim/groups', emu.keys.management)).body.data[0].id
  const body = { scim_group_id: group, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'member' }
  return (await send(emu, 'POST', '/api/v1/scim/group-mappings', body, emu.keys.management)).body.data.id
}

/** POST /api/v1/files with a form of the given files. */
const uploadFile = async (emu: TestEmulator, files: Array<{ name: string; bytes: Buffer }>, key: string | undefined) => {
  const body = await form({}, files)
  return emu.request({ method: 'POST', url: '/api/v1/files', headers: { ...auth(key), 'content-type': body.contentType }, payload: body.payload })
}
const someFile = async (emu: TestEmulator): Promise<string> =>
  (await uploadFile(emu, [{ name: 'a.txt', bytes: Buffer.from('hello') }], emu.keys.standard)).body.id
/** A downloadable ("created server-side") file, made over the admin API. */
const serverSideFile = async (emu: TestEmulator): Promise<string> =>
  (await send(emu, 'POST', `/_emulator/api/accounts/${(await defaultAccount(emu)).id}/files`, { filename: 'out.bin', content_base64: 'AAEC' })).body.data.id

/** A chat completion's generation id. */
const chatGeneration = async (emu: TestEmulator): Promise<string> =>
  (await send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] }, emu.keys.standard)).body.id

const TTS_MODEL = 'openai/gpt-4o-mini-tts'
const STT_MODEL = 'openai/whisper-large-v3'
const speechRequest = (body: Record<string, unknown>, key: string | undefined) => ({
  method: 'POST' as const,
  url: '/api/v1/audio/speech',
  headers: { ...auth(key), 'content-type': 'application/json' },
  payload: JSON.stringify({ model: TTS_MODEL, ...body }),
})
/** Audio answers are bytes: the body checked is their text, against the document's binary string. */
const speech = (emu: TestEmulator, body: Record<string, unknown>, key: string | undefined = emu.keys.standard) => emu.request(speechRequest(body, key))
const transcription = (emu: TestEmulator, body: Record<string, unknown>, key: string | undefined) =>
  send(emu, 'POST', '/api/v1/audio/transcriptions', { model: STT_MODEL, ...body }, key)
const upload = (emu: TestEmulator, body: { payload: Buffer; contentType: string }) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/audio/transcriptions',
    headers: { ...auth(emu.keys.standard), 'content-type': body.contentType },
    payload: body.payload,
  })

const createVideo = (emu: TestEmulator, operation: string, body: unknown, key: string | undefined = emu.keys.standard) =>
  send(emu, 'POST', `${ROUTER}/${operation}`, body, key)

const submitVideo = (emu: TestEmulator, body: unknown, key: string | undefined, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/videos',
    headers: { ...auth(key), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })

/** A job of the gateway's video API, finished when asked. */
async function videoJob(emu: TestEmulator, finished = false): Promise<string> {
  const id = (await submitVideo(emu, { model: 'openai/sora-2', prompt: 'a fox' }, emu.keys.standard)).body.id
  if (finished) await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
  return id
}

async function finishedTask(emu: TestEmulator): Promise<string> {
  const id = (await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'a fox' })).body.task_id
  await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
  return id
}

/** The common failures of an authenticated gateway operation. */
function authCases(
  operation: string,
  call: (emu: TestEmulator, key?: string) => Promise<Answer>,
  kind: 'management' | 'standard' | 'any',
  wrongKindStatus = 401,
): Case[] {
  const cases: Case[] = [
    { operation, name: 'no key', status: 401, run: (emu) => call(emu) },
    { operation, name: 'an unknown key', status: 401, run: (emu) => call(emu, 'sk-gw-v1-nobody') },
  ]
  if (kind === 'management') cases.push({ operation, name: 'a standard key', status: wrongKindStatus, run: (emu) => call(emu, emu.keys.standard) })
  if (kind === 'standard') cases.push({ operation, name: 'a management key', status: wrongKindStatus, run: (emu) => call(emu, emu.keys.management) })
  return cases
}

/** One kind of guardrail assignment (keys or members): list, assign and unassign, each valid, refused and on an unknown guardrail. */
function assignmentCases(
  kind: 'keys' | 'members',
  field: string,
  pick: (emu: TestEmulator) => Promise<string>,
  bad: { assign: unknown; unassign: unknown },
): Case[] {
  const of = async (emu: TestEmulator) => `/api/v1/guardrails/${await guardrail(emu)}/assignments/${kind}`
  const unknown = `/api/v1/guardrails/00000000-0000-4000-8000-000000000000/assignments/${kind}`
  const list = `guardrails.assignments.${kind}.list`
  const cases: Case[] = [
    { operation: list, name: "one guardrail's", status: 200, run: async (emu) => get(emu, await of(emu), emu.keys.management) },
    { operation: list, name: 'an unknown guardrail', status: 404, run: (emu) => get(emu, unknown, emu.keys.management) },
    ...authCases(list, (emu, key) => get(emu, unknown, key), 'management'),
  ]
  for (const [action, suffix] of [
    ['assign', ''],
    ['unassign', '/remove'],
  ] as const) {
    const operation = `guardrails.assignments.${kind}.${action}`
    cases.push(
      {
        operation,
        name: 'one',
        status: 200,
        run: async (emu) => send(emu, 'POST', `${await of(emu)}${suffix}`, { [field]: [await pick(emu)] }, emu.keys.management),
      },
      {
        operation,
        name: `the body ${JSON.stringify(bad[action])}`,
        status: 400,
        run: async (emu) => send(emu, 'POST', `${await of(emu)}${suffix}`, bad[action], emu.keys.management),
      },
      { operation, name: 'an unknown guardrail', status: 404, run: (emu) => send(emu, 'POST', `${unknown}${suffix}`, { [field]: ['x'] }, emu.keys.management) },
      ...authCases(operation, (emu, key) => send(emu, 'POST', `${unknown}${suffix}`, { [field]: ['x'] }, key), 'management'),
    )
  }
  return cases
}

const CASES: Case[] = [
  // Keys
  { operation: 'keys.list', name: 'the list', status: 200, run: (emu) => get(emu, '/api/v1/keys?include_disabled=true&offset=1', emu.keys.management) },
  { operation: 'keys.list', name: 'a bad offset', status: 400, run: (emu) => get(emu, '/api/v1/keys?offset=-1', emu.keys.management) },
  ...authCases('keys.list', (emu, key) => get(emu, '/api/v1/keys', key), 'management'),
  {
    operation: 'keys.list',
    name: 'a standard key as the real service answers it (--wrong-key-kind-status 403)',
    status: 403,
    options: { wrongKeyKindStatus: 403 },
    run: (emu) => get(emu, '/api/v1/keys', emu.keys.standard),
  },
  {
    operation: 'keys.update',
    name: 'a new limit',
    status: 200,
    run: async (emu) =>
      send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit: 5, limit_reset: 'weekly', name: 'renamed' }, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'a bad limit_reset',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit_reset: 'hourly' }, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'a malformed body',
    status: 400,
    run: async (emu) => malformed(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'an unknown hash',
    status: 404,
    run: (emu) => send(emu, 'PATCH', `/api/v1/keys/${'0'.repeat(64)}`, { name: 'x' }, emu.keys.management),
  },
  ...authCases('keys.update', (emu, key) => send(emu, 'PATCH', `/api/v1/keys/${'0'.repeat(64)}`, { name: 'x' }, key), 'management'),
  { operation: 'keys.current', name: 'a standard key', status: 200, run: (emu) => get(emu, '/api/v1/key', emu.keys.standard) },
  { operation: 'keys.current', name: 'a management key', status: 200, run: (emu) => get(emu, '/api/v1/key', emu.keys.management) },
  {
    operation: 'keys.current',
    name: 'a key with a limit, an expiry and usage',
    status: 200,
    run: async (emu) => {
      const account = (await get(emu, '/_emulator/api/accounts')).body.data[0].id
      const { key } = (
        await send(emu, 'POST', `/_emulator/api/accounts/${account}/keys`, { limit: 2, limit_reset: 'monthly', expires_at: '2027-01-01T00:00:00Z' })
      ).body.data
      await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend a little' }, key)
      return get(emu, '/api/v1/key', key)
    },
  },
  ...authCases('keys.current', (emu, key) => get(emu, '/api/v1/key', key), 'any'),

  // Catalog
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

  // Guardrails
  {
    operation: 'guardrails.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await guardrail(emu), get(emu, '/api/v1/guardrails?offset=0&limit=10', emu.keys.management)),
  },
  { operation: 'guardrails.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/guardrails?limit=101', emu.keys.management) },
  ...authCases('guardrails.list', (emu, key) => get(emu, '/api/v1/guardrails', key), 'management'),
  {
    operation: 'guardrails.create',
    name: 'every field',
    status: 201,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/guardrails',
        {
          name: 'Prod',
          description: 'd',
          limit_usd: 5,
          reset_interval: 'monthly',
          allowed_providers: ['openai'],
          ignored_providers: ['azure'],
          allowed_models: [MODEL],
          enforce_zdr: true,
        },
        emu.keys.management,
      ),
  },
  {
    operation: 'guardrails.create',
    name: 'no name',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { description: 'x' }, emu.keys.management),
  },
  {
    operation: 'guardrails.create',
    name: 'a bad reset_interval',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x', reset_interval: 'yearly' }, emu.keys.management),
  },
  {
    operation: 'guardrails.create',
    name: 'an empty allowed_models',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x', allowed_models: [] }, emu.keys.management),
  },
  { operation: 'guardrails.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/guardrails', emu.keys.management) },
  ...authCases('guardrails.create', (emu, key) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x' }, key), 'management'),
  { operation: 'guardrails.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/guardrails/${await guardrail(emu)}`, emu.keys.management) },
  {
    operation: 'guardrails.get',
    name: 'an unknown id',
    status: 404,
    run: (emu) => get(emu, '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', emu.keys.management),
  },
  { operation: 'guardrails.get', name: 'an id that is not a uuid', status: 404, run: (emu) => get(emu, '/api/v1/guardrails/not-a-uuid', emu.keys.management) },
  ...authCases('guardrails.get', (emu, key) => get(emu, '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', key), 'management'),
  {
    operation: 'guardrails.update',
    name: 'a new limit',
    status: 200,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/guardrails/${await guardrail(emu)}`, { limit_usd: 7, allowed_providers: null }, emu.keys.management),
  },
  {
    operation: 'guardrails.update',
    name: 'a negative limit',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/guardrails/${await guardrail(emu)}`, { limit_usd: -1 }, emu.keys.management),
  },
  {
    operation: 'guardrails.update',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'PATCH', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', { name: 'x' }, emu.keys.management),
  },
  ...authCases(
    'guardrails.update',
    (emu, key) => send(emu, 'PATCH', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', { name: 'x' }, key),
    'management',
  ),
  {
    operation: 'guardrails.delete',
    name: 'one',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/guardrails/${await guardrail(emu)}`, undefined, emu.keys.management),
  },
  {
    operation: 'guardrails.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', undefined, emu.keys.management),
  },
  ...authCases('guardrails.delete', (emu, key) => send(emu, 'DELETE', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', undefined, key), 'management'),
  {
    operation: 'guardrails.assignments.keys.listAll',
    name: 'all key assignments',
    status: 200,
    run: async (emu) => {
      await send(emu, 'POST', `/api/v1/guardrails/${await guardrail(emu)}/assignments/keys`, { key_hashes: [(await firstKey(emu)).hash] }, emu.keys.management)
      return get(emu, '/api/v1/guardrails/assignments/keys', emu.keys.management)
    },
  },
  ...authCases('guardrails.assignments.keys.listAll', (emu, key) => get(emu, '/api/v1/guardrails/assignments/keys', key), 'management'),
  {
    operation: 'guardrails.assignments.members.listAll',
    name: 'all member assignments',
    status: 200,
    run: async (emu) => {
      await send(
        emu,
        'POST',
        `/api/v1/guardrails/${await guardrail(emu)}/assignments/members`,
        { member_user_ids: [(await firstKey(emu)).creator_user_id] },
        emu.keys.management,
      )
      return get(emu, '/api/v1/guardrails/assignments/members', emu.keys.management)
    },
  },
  ...authCases('guardrails.assignments.members.listAll', (emu, key) => get(emu, '/api/v1/guardrails/assignments/members', key), 'management'),
  ...assignmentCases('keys', 'key_hashes', async (emu) => (await firstKey(emu)).hash, { assign: {}, unassign: { key_hashes: [] } }),
  ...assignmentCases('members', 'member_user_ids', async (emu) => (await firstKey(emu)).creator_user_id, { assign: { member_user_ids: [1] }, unassign: {} }),

  // Embeddings
  {
    operation: 'embeddings.create',
    name: 'a string',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'hello' }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'strings as base64, fewer dimensions',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: ['a', 'b'], encoding_format: 'base64', dimensions: 8 }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'token ids',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [[15339, 1917]] }, emu.keys.standard),
  },
  { operation: 'embeddings.create', name: 'no input', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL }, emu.keys.standard) },
  {
    operation: 'embeddings.create',
    name: 'a bad encoding_format',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x', encoding_format: 'hex' }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'an unknown model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: 'nobody/nothing', input: 'x' }, emu.keys.standard),
  },
  { operation: 'embeddings.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/embeddings', emu.keys.standard) },
  {
    operation: 'embeddings.create',
    name: 'a body that is not JSON',
    status: 400,
    run: (emu) =>
      emu.request({ method: 'POST', url: '/api/v1/embeddings', headers: { ...auth(emu.keys.standard), 'content-type': 'text/plain' }, payload: 'hello' }),
  },
  // Chat and text completions
  {
    operation: 'chat.create',
    name: 'a conversation',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'a tool call',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/chat/completions',
        { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' },
        emu.keys.standard,
      ),
  },
  {
    operation: 'chat.create',
    name: 'no messages',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'an embeddings model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'no credits',
    status: 402,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, await brokeAccountKey(emu)),
  },
  ...authCases(
    'chat.create',
    (emu, key) => send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, key),
    'standard',
  ),
  {
    operation: 'completions.create',
    name: 'a prompt',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/completions', { model: CHAT_MODEL, prompt: 'Once upon a time' }, emu.keys.standard),
  },
  {
    operation: 'completions.create',
    name: 'no prompt',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/completions', { model: CHAT_MODEL }, emu.keys.standard),
  },
  // The Responses API
  {
    operation: 'responses.create',
    name: 'a string input',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'hello', instructions: 'Be brief.' }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'a function call',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/responses',
        {
          model: CHAT_MODEL,
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'x' }] }],
          tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { id: { type: 'integer' } } }, strict: true }],
          tool_choice: 'required',
        },
        emu.keys.standard,
      ),
  },
  {
    operation: 'responses.create',
    name: 'reasoning with a summary, cut at max_output_tokens',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/responses',
        { model: 'openai/o4-mini', input: 'why?', reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 40, metadata: { run: '1' } },
        emu.keys.standard,
      ),
  },
  {
    operation: 'responses.create',
    name: 'no input',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'an unknown model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: 'nobody/nothing', input: 'x' }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'responses.create',
    name: 'no endpoint matches the provider preferences',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x', provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  ...authCases('responses.create', (emu, key) => send(emu, 'POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'x' }, key), 'standard'),
  {
    operation: 'generation.get',
    name: 'a past chat',
    status: 200,
    run: async (emu) => {
      const chat = await send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard)
      return get(emu, `/api/v1/generation?id=${(chat.body as { id: string }).id}`, emu.keys.standard)
    },
  },
  { operation: 'generation.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/generation?id=gen-0-nothing', emu.keys.standard) },
  ...authCases('generation.get', (emu, key) => get(emu, '/api/v1/generation?id=gen-0-nothing', key), 'any'),

  // Generation content and feedback
  {
    operation: 'generation.content',
    name: "a chat's prompt and answer",
    status: 200,
    run: async (emu) => get(emu, `/api/v1/generation/content?id=${await chatGeneration(emu)}`, emu.keys.standard),
  },
  {
    operation: 'generation.content',
    name: 'an unknown id',
    status: 404,
    run: (emu) => get(emu, '/api/v1/generation/content?id=gen-0-nothing', emu.keys.standard),
  },
  ...authCases('generation.content', (emu, key) => get(emu, '/api/v1/generation/content?id=gen-0-nothing', key), 'any'),
  {
    operation: 'generation.feedback',
    name: 'feedback on a chat',
    status: 200,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: await chatGeneration(emu), category: 'latency', comment: 'slow' }, emu.keys.management),
  },
  {
    operation: 'generation.feedback',
    name: 'an unknown category',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'gen-0-nothing', category: 'rude' }, emu.keys.management),
  },
  {
    operation: 'generation.feedback',
    name: 'an unknown generation',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'gen-0-nothing', category: 'other' }, emu.keys.management),
  },
  ...authCases(
    'generation.feedback',
    (emu, key) => send(emu, 'POST', '/api/v1/generation/feedback', { generation_id: 'x', category: 'other' }, key),
    'management',
  ),

  // Organization members and SCIM
  {
    operation: 'organization.members.list',
    name: 'a page',
    status: 200,
    run: (emu) => get(emu, '/api/v1/organization/members?offset=0&limit=10', emu.keys.management),
  },
  ...authCases('organization.members.list', (emu, key) => get(emu, '/api/v1/organization/members', key), 'management'),
  { operation: 'scim.groups.list', name: 'the directory', status: 200, run: (emu) => get(emu, '/api/v1/scim/groups?limit=5', emu.keys.management) },
  ...authCases('scim.groups.list', (emu, key) => get(emu, '/api/v1/scim/groups', key), 'management'),
  {
    operation: 'scim.mappings.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await scimMapping(emu), get(emu, '/api/v1/scim/group-mappings', emu.keys.management)),
  },
  ...authCases('scim.mappings.list', (emu, key) => get(emu, '/api/v1/scim/group-mappings', key), 'management'),
  {
    operation: 'scim.mappings.create',
    name: 'a mapping',
    status: 201,
    run: async (emu) => {
      const group = (await get(emu, '/api/v1/scim/groups', emu.keys.management)).body.data[0].id
      const body = { scim_group_id: group, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'admin' }
      return send(emu, 'POST', '/api/v1/scim/group-mappings', body, emu.keys.management)
    },
  },
  {
    operation: 'scim.mappings.create',
    name: 'an unknown role',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/scim/group-mappings', { scim_group_id: NO_UUID, workspace_id: NO_UUID, role: 'owner' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.create',
    name: 'a group outside the directory',
    status: 404,
    run: async (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/scim/group-mappings',
        { scim_group_id: NO_UUID, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'member' },
        emu.keys.management,
      ),
  },
  {
    operation: 'scim.mappings.create',
    name: 'a group mapped twice to one workspace',
    status: 409,
    run: async (emu) => {
      const first = (await get(emu, `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, emu.keys.management)).body.data
      return send(
        emu,
        'POST',
        '/api/v1/scim/group-mappings',
        { scim_group_id: first.scim_group_id, workspace_id: first.workspace_id, role: 'admin' },
        emu.keys.management,
      )
    },
  },
  ...authCases(
    'scim.mappings.create',
    (emu, key) => send(emu, 'POST', '/api/v1/scim/group-mappings', { scim_group_id: NO_UUID, workspace_id: NO_UUID, role: 'member' }, key),
    'management',
  ),
  {
    operation: 'scim.mappings.get',
    name: 'one',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, emu.keys.management),
  },
  { operation: 'scim.mappings.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `/api/v1/scim/group-mappings/${NO_UUID}`, emu.keys.management) },
  ...authCases('scim.mappings.get', (emu, key) => get(emu, `/api/v1/scim/group-mappings/${NO_UUID}`, key), 'management'),
  {
    operation: 'scim.mappings.update',
    name: 'a new role',
    status: 200,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, { role: 'admin' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.update',
    name: 'an unknown role',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, { role: 'owner' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.update',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${NO_UUID}`, { role: 'admin' }, emu.keys.management),
  },
  ...authCases('scim.mappings.update', (emu, key) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${NO_UUID}`, { role: 'admin' }, key), 'management'),
  {
    operation: 'scim.mappings.delete',
    name: 'one, keeping its members',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${await scimMapping(emu)}?keep_members=true`, undefined, emu.keys.management),
  },
  {
    operation: 'scim.mappings.delete',
    name: 'no keep_members (it has no default)',
    status: 400,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, undefined, emu.keys.management),
  },
  {
    operation: 'scim.mappings.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${NO_UUID}?keep_members=false`, undefined, emu.keys.management),
  },
  ...authCases(
    'scim.mappings.delete',
    (emu, key) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${NO_UUID}?keep_members=false`, undefined, key),
    'management',
  ),

  // Files
  {
    operation: 'files.upload',
    name: 'a text file',
    status: 200,
    run: (emu) => uploadFile(emu, [{ name: 'notes.md', bytes: Buffer.from('# Notes') }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'an empty file',
    status: 400,
    run: (emu) => uploadFile(emu, [{ name: 'empty.txt', bytes: Buffer.alloc(0) }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'bytes of no type it takes',
    status: 400,
    run: (emu) => uploadFile(emu, [{ name: 'x.bin', bytes: Buffer.from([0, 1, 2]) }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'a file over 25 MB',
    status: 413,
    run: (emu) => uploadFile(emu, [{ name: 'big.txt', bytes: Buffer.alloc(25 * 1024 * 1024 + 1, 0x61) }], emu.keys.standard),
  },
  ...authCases('files.upload', (emu, key) => uploadFile(emu, [{ name: 'a.txt', bytes: Buffer.from('x') }], key), 'any'),
  {
    operation: 'files.list',
    name: 'a page',
    status: 200,
    run: async (emu) => (await someFile(emu), await someFile(emu), get(emu, '/api/v1/files?limit=1', emu.keys.standard)),
  },
  { operation: 'files.list', name: 'in the OpenAI shape', status: 200, run: async (emu) => get(emu, '/api/v1/files?provider=openai', emu.keys.standard) },
  { operation: 'files.list', name: 'a reverse cursor', status: 400, run: (emu) => get(emu, '/api/v1/files?before_id=or_file_x', emu.keys.standard) },
  {
    operation: 'files.list',
    name: "another account's workspace",
    status: 403,
    run: (emu) => get(emu, `/api/v1/files?workspace_id=${NO_UUID}`, emu.keys.standard),
  },
  ...authCases('files.list', (emu, key) => get(emu, '/api/v1/files', key), 'any'),
  { operation: 'files.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/files/${await someFile(emu)}`, emu.keys.standard) },
  { operation: 'files.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/files/or_file_nothing', emu.keys.standard) },
  ...authCases('files.get', (emu, key) => get(emu, '/api/v1/files/or_file_nothing', key), 'any'),
  {
    operation: 'files.delete',
    name: 'one',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/files/${await someFile(emu)}`, undefined, emu.keys.standard),
  },
  {
    operation: 'files.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', '/api/v1/files/or_file_nothing', undefined, emu.keys.standard),
  },
  ...authCases('files.delete', (emu, key) => send(emu, 'DELETE', '/api/v1/files/or_file_nothing', undefined, key), 'any'),
  {
    operation: 'files.content',
    name: 'a server-side file',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/files/${await serverSideFile(emu)}/content`, emu.keys.standard),
  },
  {
    operation: 'files.content',
    name: 'an upload (not downloadable)',
    status: 400,
    run: async (emu) => get(emu, `/api/v1/files/${await someFile(emu)}/content`, emu.keys.standard),
  },
  { operation: 'files.content', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/files/or_file_nothing/content', emu.keys.standard) },
  ...authCases('files.content', (emu, key) => get(emu, '/api/v1/files/or_file_nothing/content', key), 'any'),
  {
    operation: 'embeddings.create',
    name: 'no provider left',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x', provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'embeddings.create',
    name: 'a key over its limit (the observed 403)',
    status: 403,
    options: { keyLimitStatus: 403 },
    run: async (emu) => {
      await send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit: 0 }, emu.keys.management)
      return send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    },
  },
  {
    operation: 'embeddings.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard),
      send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    ),
  },
  {
    operation: 'embeddings.create',
    name: 'a list of doubles (the spec)',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [0.25, -1.5, 3] }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'a list of doubles with --embeddings-numbers token-ids',
    status: 400,
    options: { embeddingsNumbers: 'token-ids' },
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [0.25, -1.5, 3] }, emu.keys.standard),
  },
  ...authCases('embeddings.create', (emu, key) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, key), 'standard'),
  // Audio
  { operation: 'audio.speech', name: 'pcm (the default)', status: 200, run: (emu) => speech(emu, { input: 'Hello there.' }) },
  {
    operation: 'audio.speech',
    name: 'mp3',
    status: 200,
    run: (emu) => speech(emu, { input: 'Hello there.', response_format: 'mp3', voice: 'nova', speed: 1.5 }),
  },
  { operation: 'audio.speech', name: 'a voice of another model', status: 400, run: (emu) => speech(emu, { input: 'x', voice: 'Kore' }) },
  { operation: 'audio.speech', name: 'flac, outside the formats served', status: 400, run: (emu) => speech(emu, { input: 'x', response_format: 'flac' }) },
  { operation: 'audio.speech', name: 'wav, served beside mp3 and pcm', status: 200, run: (emu) => speech(emu, { input: 'x', response_format: 'wav' }) },
  { operation: 'audio.speech', name: 'a chat model', status: 400, run: (emu) => speech(emu, { input: 'x', model: CHAT_MODEL }) },
  { operation: 'audio.speech', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/audio/speech', emu.keys.standard) },
  { operation: 'audio.speech', name: 'no credits', status: 402, run: async (emu) => speech(emu, { input: 'x' }, await brokeAccountKey(emu)) },
  {
    operation: 'audio.speech',
    name: 'a voice reference (no endpoint clones voices)',
    status: 404,
    run: (emu) => speech(emu, { input: 'x', input_references: [{ type: 'text', text: 'hi' }] }),
  },
  {
    operation: 'audio.speech',
    name: 'a 429 fault',
    status: 429,
    run: (emu) => {
      const request = speechRequest({ input: 'x' }, emu.keys.standard)
      return emu.request({ ...request, headers: { ...request.headers, 'x-emulator-fault': '429' } })
    },
  },
  ...authCases('audio.speech', (emu, key) => emu.request(speechRequest({ input: 'x' }, key)), 'standard'),
  {
    operation: 'audio.transcriptions',
    name: 'JSON',
    status: 200,
    run: (emu) => transcription(emu, { input_audio: audioJson(wav(tone(1, 440)), 'wav') }, emu.keys.standard),
  },
  {
    operation: 'audio.transcriptions',
    name: 'verbose_json with words',
    status: 200,
    run: (emu) =>
      transcription(
        emu,
        { input_audio: audioJson(wav(tone(3, 440)), 'wav'), response_format: 'verbose_json', timestamp_granularities: ['word'] },
        emu.keys.standard,
      ),
  },
  {
    operation: 'audio.transcriptions',
    name: 'a form',
    status: 200,
    run: async (emu) => upload(emu, await form({ model: STT_MODEL, response_format: 'verbose_json' }, [{ name: 'a.wav', bytes: wav(tone(2, 440)) }])),
  },
  {
    operation: 'audio.transcriptions',
    name: 'bad base64',
    status: 400,
    run: (emu) => transcription(emu, { input_audio: { data: '!!', format: 'wav' } }, emu.keys.standard),
  },
  {
    operation: 'audio.transcriptions',
    name: 'an unknown format',
    status: 400,
    run: (emu) => transcription(emu, { input_audio: { data: 'AAAA', format: 'aac' } }, emu.keys.standard),
  },
  { operation: 'audio.transcriptions', name: 'a form without a file', status: 400, run: async (emu) => upload(emu, await form({ model: STT_MODEL })) },
  {
    operation: 'audio.transcriptions',
    name: 'an upload over 25 MB',
    status: 413,
    run: async (emu) => upload(emu, await form({ model: STT_MODEL }, [{ name: 'big.pcm', bytes: Buffer.alloc(25 * 1024 * 1024 + 2) }])),
  },
  {
    operation: 'audio.transcriptions',
    name: 'no credits',
    status: 402,
    run: async (emu) => transcription(emu, { input_audio: audioJson(wav(tone(1, 440)), 'wav') }, await brokeAccountKey(emu)),
  },
  ...authCases('audio.transcriptions', (emu, key) => transcription(emu, { input_audio: { data: 'AAAA', format: 'pcm' } }, key), 'standard'),
  ...[500, 502, 503].map((status): Case => ({
    operation: 'embeddings.create',
    name: `a ${status} fault`,
    status,
    run: async (emu) => {
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'embeddings.create' }, action: { status } })
      return send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    },
  })),

  // Rerank
  {
    operation: 'rerank.create',
    name: 'strings',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'capital of France', documents: ['Paris', 'Berlin'] }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'objects, top_n and provider preferences',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/rerank',
        { model: RERANK_MODEL, query: 'q', documents: [{ text: 'a' }, 'b', { text: 'c' }], top_n: 2, provider: { order: ['amazon-bedrock'] } },
        emu.keys.standard,
      ),
  },
  {
    operation: 'rerank.create',
    name: 'no documents',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: [] }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'top_n 0',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'], top_n: 0 }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'a chat model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: CHAT_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard),
  },
  { operation: 'rerank.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/rerank', emu.keys.standard) },
  {
    operation: 'rerank.create',
    name: 'no provider left',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'], provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, await brokeAccountKey(emu)),
  },
  {
    operation: 'rerank.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard),
      send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
    ),
  },
  ...authCases('rerank.create', (emu, key) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, key), 'standard'),
  ...[500, 502, 503].map((status): Case => ({
    operation: 'rerank.create',
    name: `a ${status} fault`,
    status,
    run: async (emu) => {
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'rerank.create' }, action: { status } })
      return send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
    },
  })),
  {
    operation: 'generation.get',
    name: 'a past rerank',
    status: 200,
    run: async (emu) => {
      const ranked = await send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
      return get(emu, `/api/v1/generation?id=${(ranked.body as { id: string }).id}`, emu.keys.standard)
    },
  },

  // The Anthropic Messages API
  ...(() => {
    const messages = (emu: TestEmulator, body: Record<string, unknown>, key?: string) =>
      send(emu, 'POST', '/api/v1/messages', { model: MESSAGES_MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'hello' }], ...body }, key)
    const tool = { name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }
    const cases: Case[] = [
      {
        operation: 'messages.create',
        name: 'a conversation',
        status: 200,
        run: (emu) => messages(emu, { system: 'Be brief.', stop_sequences: ['zzz'] }, emu.keys.standard),
      },
      {
        operation: 'messages.create',
        name: 'thinking and a tool call',
        status: 200,
        run: (emu) => messages(emu, { thinking: { type: 'enabled', budget_tokens: 64 }, tools: [tool], tool_choice: { type: 'any' } }, emu.keys.standard),
      },
      {
        operation: 'messages.create',
        name: 'a tool result answered',
        status: 200,
        run: (emu) =>
          messages(
            emu,
            {
              tools: [tool],
              messages: [
                { role: 'user', content: 'look it up' },
                { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { id: 1 } }] },
                { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' }] },
              ],
            },
            emu.keys.standard,
          ),
      },
      { operation: 'messages.create', name: 'no messages', status: 400, run: (emu) => messages(emu, { messages: [] }, emu.keys.standard) },
      {
        operation: 'messages.create',
        name: 'a tool_result without tool_use_id',
        status: 400,
        run: (emu) => messages(emu, { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, emu.keys.standard),
      },
      { operation: 'messages.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/messages', emu.keys.standard) },
      ...authCases('messages.create', (emu, key) => messages(emu, {}, key), 'standard'),
      { operation: 'messages.create', name: 'no credits', status: 402, run: async (emu) => messages(emu, {}, await brokeAccountKey(emu)) },
      { operation: 'messages.create', name: 'an unknown model', status: 404, run: (emu) => messages(emu, { model: 'nobody/nothing' }, emu.keys.standard) },
      ...[429, 500, 503, 529].map((status) => ({
        operation: 'messages.create',
        name: `a ${status} fault (X-Emulator-Fault)`,
        status,
        run: (emu: TestEmulator) =>
          emu.request({
            method: 'POST',
            url: '/api/v1/messages',
            headers: { ...auth(emu.keys.standard), 'content-type': 'application/json', 'x-emulator-fault': String(status) },
            payload: { model: MESSAGES_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] },
          }),
      })),
    ]
    return cases
  })(),

  // Images
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
  {
    operation: 'chat.create',
    name: 'an image asked for',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/chat/completions',
        { model: 'google/gemini-2.5-flash-image', modalities: ['image', 'text'], messages: [{ role: 'user', content: 'a red panda' }] },
        emu.keys.standard,
      ),
  },

  // Activity
  { operation: 'activity.list', name: '30 days', status: 200, options: { demo: true }, run: (emu) => get(emu, '/api/v1/activity', emu.keys.management) },
  {
    operation: 'activity.list',
    name: 'one day',
    status: 200,
    options: { demo: true },
    run: (emu) => get(emu, '/api/v1/activity?date=2026-03-01', emu.keys.management),
  },
  { operation: 'activity.list', name: 'a bad date', status: 400, run: (emu) => get(emu, '/api/v1/activity?date=03/01/2026', emu.keys.management) },
  ...authCases('activity.list', (emu, key) => get(emu, '/api/v1/activity', key), 'management', 403),

  // Analytics (the ledger's usage rows)
  { operation: 'analytics.meta', name: 'the meta', status: 200, run: (emu) => get(emu, '/api/v1/analytics/meta', emu.keys.management) },
  ...authCases('analytics.meta', (emu, key) => get(emu, '/api/v1/analytics/meta', key), 'management', 403),
  {
    operation: 'analytics.query',
    name: 'spend and latency by model and day',
    status: 200,
    options: { demo: true },
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        {
          metrics: ['request_count', 'total_usage', 'tokens_total', 'avg_latency'],
          dimensions: ['model', 'api_key_id'],
          granularity: 'day',
          time_range: { start: '2026-02-02T00:00:00Z', end: '2026-03-04T00:00:00Z' },
          order_by: { field: 'total_usage', direction: 'desc' },
          limit: 50,
        },
        emu.keys.management,
      ),
  },
  {
    operation: 'analytics.query',
    name: 'a filter on an unknown key (warnings)',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        { metrics: ['request_count'], filters: [{ field: 'api_key_id', operator: 'eq', value: 'nope' }] },
        emu.keys.management,
      ),
  },
  {
    operation: 'analytics.query',
    name: 'an unknown metric',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/analytics/query', { metrics: ['spend'] }, emu.keys.management),
  },
  {
    operation: 'analytics.query',
    name: 'a range over 365 days',
    status: 400,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        { metrics: ['request_count'], time_range: { start: '2024-01-01T00:00:00Z', end: '2026-01-01T00:00:00Z' } },
        emu.keys.management,
      ),
  },
  { operation: 'analytics.query', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/analytics/query', emu.keys.management) },
  ...authCases('analytics.query', (emu, key) => send(emu, 'POST', '/api/v1/analytics/query', { metrics: ['request_count'] }, key), 'management', 403),

  // Public datasets and rankings (any key; 30 a minute per key)
  { operation: 'benchmarks.list', name: 'every source', status: 200, run: (emu) => get(emu, '/api/v1/benchmarks', emu.keys.standard) },
  {
    operation: 'benchmarks.list',
    name: 'search with its run config',
    status: 200,
    run: (emu) => get(emu, '/api/v1/benchmarks?task_type=search&include_run_config=true', emu.keys.standard),
  },
  {
    operation: 'benchmarks.list',
    name: 'the builders arena',
    status: 200,
    run: (emu) => get(emu, '/api/v1/benchmarks?source=design-arena&arena=builders', emu.keys.management),
  },
  { operation: 'benchmarks.list', name: 'a bad source', status: 400, run: (emu) => get(emu, '/api/v1/benchmarks?source=elsewhere', emu.keys.standard) },
  {
    operation: 'benchmarks.list',
    name: 'search from another source',
    status: 400,
    run: (emu) => get(emu, '/api/v1/benchmarks?task_type=search&source=design-arena', emu.keys.standard),
  },
  {
    operation: 'benchmarks.list',
    name: 'the 31st request of a minute',
    status: 429,
    run: async (emu) => {
      for (let i = 0; i < 30; i++) await get(emu, '/api/v1/benchmarks?max_results=1', emu.keys.standard)
      return get(emu, '/api/v1/benchmarks', emu.keys.standard)
    },
  },
  ...authCases('benchmarks.list', (emu, key) => get(emu, '/api/v1/benchmarks', key), 'any'),
  {
    operation: 'classifications.task',
    name: 'the trailing week',
    status: 200,
    run: (emu) => get(emu, '/api/v1/classifications/task?window=7d', emu.keys.standard),
  },
  {
    operation: 'classifications.task',
    name: 'a bad window',
    status: 400,
    run: (emu) => get(emu, '/api/v1/classifications/task?window=30d', emu.keys.standard),
  },
  ...authCases('classifications.task', (emu, key) => get(emu, '/api/v1/classifications/task', key), 'any'),
  { operation: 'datasets.appRankings', name: 'popular', status: 200, run: (emu) => get(emu, '/api/v1/datasets/app-rankings', emu.keys.standard) },
  {
    operation: 'datasets.appRankings',
    name: 'trending coding apps, second page',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?sort=trending&category=coding&limit=5&offset=5', emu.keys.standard),
  },
  {
    operation: 'datasets.appRankings',
    name: 'an end before the dataset',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?end_date=2024-12-31', emu.keys.standard),
  },
  {
    operation: 'datasets.appRankings',
    name: 'a subcategory of another category',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?category=creative&subcategory=cli-agent', emu.keys.standard),
  },
  ...authCases('datasets.appRankings', (emu, key) => get(emu, '/api/v1/datasets/app-rankings', key), 'any'),
  { operation: 'datasets.rankingsDaily', name: 'the last 30 days', status: 200, run: (emu) => get(emu, '/api/v1/datasets/rankings-daily', emu.keys.standard) },
  {
    operation: 'datasets.rankingsDaily',
    name: 'programming by month',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?category=programming&period=month', emu.keys.standard),
  },
  {
    operation: 'datasets.rankingsDaily',
    name: 'a sampled dataset by day',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?category=programming&period=day', emu.keys.standard),
  },
  {
    operation: 'datasets.rankingsDaily',
    name: 'no such date',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?start_date=2026-02-31', emu.keys.standard),
  },
  ...authCases('datasets.rankingsDaily', (emu, key) => get(emu, '/api/v1/datasets/rankings-daily', key), 'any'),
  { operation: 'datasets.sessionCost', name: 'every cell', status: 200, run: (emu) => get(emu, '/api/v1/datasets/session-cost', emu.keys.standard) },
  {
    operation: 'datasets.sessionCost',
    name: 'one harness, long sessions',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/session-cost?app_slug=hermes-agent&turn_range=50-plus-turns&offset=1&limit=2', emu.keys.standard),
  },
  { operation: 'datasets.sessionCost', name: 'a limit of 0', status: 400, run: (emu) => get(emu, '/api/v1/datasets/session-cost?limit=0', emu.keys.standard) },
  ...authCases('datasets.sessionCost', (emu, key) => get(emu, '/api/v1/datasets/session-cost', key), 'any'),

  // Credits
  { operation: 'credits.get', name: 'the balance', status: 200, run: (emu) => get(emu, '/api/v1/credits', emu.keys.standard) },
  ...authCases('credits.get', (emu, key) => get(emu, '/api/v1/credits', key), 'any'),
  { operation: 'credits.crypto', name: 'a charge', status: 200, run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, emu.keys.standard) },
  {
    operation: 'credits.crypto',
    name: 'a bad chain_id',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', { ...CHARGE, chain_id: 5 }, emu.keys.standard),
  },
  ...authCases('credits.crypto', (emu, key) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, key), 'any'),
  { operation: 'credits.coinbase', name: 'a charge', status: 200, run: (emu) => send(emu, 'POST', '/api/v1/credits/coinbase', CHARGE, emu.keys.standard) },
  {
    operation: 'credits.crypto',
    name: 'as the real service today (--crypto-charges gone)',
    status: 410,
    options: { cryptoCharges: 'gone' },
    run: (emu) => send(emu, 'POST', '/api/v1/credits/crypto', CHARGE, emu.keys.standard),
  },
  {
    operation: 'credits.coinbase',
    name: 'as the real service today (--crypto-charges gone)',
    status: 410,
    options: { cryptoCharges: 'gone' },
    run: (emu) => send(emu, 'POST', '/api/v1/credits/coinbase', CHARGE),
  },

  // The gateway's video API
  {
    operation: 'videos.create',
    name: 'a job',
    status: 202,
    run: (emu) => submitVideo(emu, { model: 'google/veo-3.1', prompt: 'a fox', duration: 4 }, emu.keys.standard),
  },
  {
    operation: 'videos.create',
    name: 'first and last frames, a size, a webhook',
    status: 202,
    run: (emu) =>
      submitVideo(
        emu,
        {
          model: 'google/veo-3.1',
          size: '1080x1920',
          frame_images: [
            { type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' },
            { type: 'image_url', image_url: { url: 'https://example.com/last.png' }, frame_type: 'last_frame' },
          ],
          callback_url: 'https://example.com/hook',
        },
        emu.keys.standard,
      ),
  },
  {
    operation: 'videos.create',
    name: 'a duration the model lacks',
    status: 400,
    run: (emu) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x', duration: 5 }, emu.keys.standard),
  },
  { operation: 'videos.create', name: 'a chat model', status: 400, run: (emu) => submitVideo(emu, { model: CHAT_MODEL, prompt: 'x' }, emu.keys.standard) },
  { operation: 'videos.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/videos', emu.keys.standard) },
  {
    operation: 'videos.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'videos.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard),
      submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard)
    ),
  },
  ...authCases('videos.create', (emu, key) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, key), 'standard'),
  { operation: 'videos.get', name: 'a pending job', status: 200, run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu)}`, emu.keys.standard) },
  {
    operation: 'videos.get',
    name: 'a completed job',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu, true)}`, emu.keys.standard),
  },
  {
    operation: 'videos.get',
    name: 'a failed job',
    status: 200,
    run: async (emu) => {
      const id = (await submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard, { 'x-emulator-video-outcome': 'failed' })).body.id
      await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
      return get(emu, `/api/v1/videos/${id}`, emu.keys.standard)
    },
  },
  { operation: 'videos.get', name: 'an unknown job', status: 404, run: (emu) => get(emu, '/api/v1/videos/123456789012345678', emu.keys.standard) },
  ...authCases('videos.get', (emu, key) => get(emu, '/api/v1/videos/123456789012345678', key), 'standard'),
  {
    operation: 'videos.content',
    name: 'the video',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu, true)}/content?index=0`, emu.keys.standard),
  },
  {
    operation: 'videos.content',
    name: 'a job not completed yet',
    status: 400,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu)}/content`, emu.keys.standard),
  },
  { operation: 'videos.content', name: 'an unknown job', status: 404, run: (emu) => get(emu, '/api/v1/videos/123456789012345678/content', emu.keys.standard) },
  ...authCases('videos.content', (emu, key) => get(emu, '/api/v1/videos/123456789012345678/content', key), 'standard'),
  { operation: 'videos.models', name: 'the video models', status: 200, run: (emu) => get(emu, '/api/v1/videos/models') },
  {
    operation: 'videos.models',
    name: 'a 500 fault',
    status: 500,
    run: async (emu) => (
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'videos.models' }, action: { status: 500 } }),
      get(emu, '/api/v1/videos/models')
    ),
  },

  // The video router
  {
    operation: 'video.text2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'a fox', seed: 0, payload: 'p' }),
  },
  { operation: 'video.text2video', name: 'no prompt', status: 400, run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2' }) },
  {
    operation: 'video.text2video',
    name: 'a bad style',
    status: 400,
    run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x', style: 'noir' }),
  },
  { operation: 'video.text2video', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', `${ROUTER}/text2video`, emu.keys.standard) },
  {
    operation: 'video.text2video',
    name: 'a body that is not JSON',
    status: 400,
    run: (emu) =>
      emu.request({ method: 'POST', url: `${ROUTER}/text2video`, headers: { ...auth(emu.keys.standard), 'content-type': 'text/plain' }, payload: 'x' }),
  },
  {
    operation: 'video.text2video',
    name: 'too few credits',
    status: 400,
    run: async (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'video.text2video',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' }),
      createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' })
    ),
  },
  ...authCases('video.text2video', (emu, key) => send(emu, 'POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt: 'x' }, key), 'standard'),

  { operation: 'video.img2video', name: 'a task', status: 200, run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [IMG] }) },
  { operation: 'video.img2video', name: 'two images', status: 400, run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [IMG, IMG] }) },
  {
    operation: 'video.img2video',
    name: 'not an image',
    status: 400,
    run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: ['data:image/gif;base64,R0lGODlhAQABAAAAACw='] }),
  },
  {
    operation: 'video.img2video',
    name: 'a 5:1 image',
    status: 400,
    run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [dataUri(png(500, 100), 'image/png')] }),
  },
  {
    operation: 'video.reference2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'reference2video', { model: 'videoq2', images: [IMG], prompt: 'x' }),
  },
  {
    operation: 'video.reference2video',
    name: 'an unknown model',
    status: 400,
    run: (emu) => createVideo(emu, 'reference2video', { model: 'nothing', images: [IMG], prompt: 'x' }),
  },
  {
    operation: 'video.startend2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG, IMG] }),
  },
  {
    operation: 'video.startend2video',
    name: 'one image',
    status: 400,
    run: (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG] }),
  },
  {
    operation: 'video.startend2video',
    name: 'too few credits as 402 (--video-credit-status 402)',
    status: 402,
    options: { videoCreditStatus: 402 },
    run: async (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG, IMG] }, await brokeAccountKey(emu)),
  },
  {
    operation: 'video.multiframe',
    name: 'a task',
    status: 200,
    run: (emu) =>
      createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: IMG, duration: 3 }] }),
  },
  {
    operation: 'video.multiframe',
    name: 'no key frames (the spec: image_settings is optional)',
    status: 200,
    run: (emu) => createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG }),
  },
  {
    operation: 'video.multiframe',
    name: 'one key frame with --multiframe-min-key-frames 2',
    status: 400,
    options: { multiframeMinKeyFrames: 2 },
    run: (emu) => createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }] }),
  },
  {
    operation: 'video.multiframe',
    name: 'ten key frames',
    status: 400,
    run: (emu) =>
      createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: Array.from({ length: 10 }, () => ({ key_image: IMG })) }),
  },
  {
    operation: 'video.template2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'template2video', { template: 'hug', images: [IMG], prompt: 'x', seed: 1 }),
  },
  {
    operation: 'video.template2video',
    name: 'an unknown template',
    status: 400,
    run: (emu) => createVideo(emu, 'template2video', { template: 'nothing', images: [IMG], prompt: 'x', seed: 1 }),
  },
  {
    operation: 'video.tasks.get',
    name: 'a new task',
    status: 200,
    run: async (emu) =>
      get(emu, `${ROUTER}/tasks/${(await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id}/creations`, emu.keys.standard),
  },
  {
    operation: 'video.tasks.get',
    name: 'a finished task',
    status: 200,
    run: async (emu) => get(emu, `${ROUTER}/tasks/${await finishedTask(emu)}/creations`, emu.keys.standard),
  },
  {
    operation: 'video.tasks.get',
    name: 'an unknown task',
    status: 404,
    run: (emu) => get(emu, `${ROUTER}/tasks/123456789012345678/creations`, emu.keys.standard),
  },
  ...authCases('video.tasks.get', (emu, key) => get(emu, `${ROUTER}/tasks/123456789012345678/creations`, key), 'standard'),
  {
    operation: 'video.tasks.cancel',
    name: 'an off-peak task',
    status: 200,
    run: async (emu) =>
      send(
        emu,
        'POST',
        `${ROUTER}/tasks/${(await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x', off_peak: true })).body.task_id}/cancel`,
        {},
        emu.keys.standard,
      ),
  },
  {
    operation: 'video.tasks.cancel',
    name: 'a finished task',
    status: 400,
    run: async (emu) => send(emu, 'POST', `${ROUTER}/tasks/${await finishedTask(emu)}/cancel`, {}, emu.keys.standard),
  },
  {
    operation: 'video.tasks.cancel',
    name: 'an unknown task',
    status: 404,
    run: (emu) => send(emu, 'POST', `${ROUTER}/tasks/123456789012345678/cancel`, {}, emu.keys.standard),
  },
  {
    operation: 'video.tasks.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await finishedTask(emu), get(emu, `${ROUTER}/tasks?pager.pagesz=5`, emu.keys.standard)),
  },
  { operation: 'video.tasks.list', name: 'a page size over 100', status: 400, run: (emu) => get(emu, `${ROUTER}/tasks?pager.pagesz=101`, emu.keys.standard) },
  { operation: 'video.tasks.list', name: 'an unknown state', status: 400, run: (emu) => get(emu, `${ROUTER}/tasks?states=done`, emu.keys.standard) },
  ...authCases('video.tasks.list', (emu, key) => get(emu, `${ROUTER}/tasks`, key), 'standard'),
  { operation: 'video.templates', name: 'the templates', status: 200, run: (emu) => get(emu, '/router/v1/video/templates', emu.keys.standard) },
  {
    operation: 'video.templates',
    name: 'a 500 fault',
    status: 500,
    run: async (emu) => (
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'video.templates' }, action: { status: 500 } }),
      get(emu, '/router/v1/video/templates')
    ),
  },
  {
    operation: 'video.media',
    name: 'a video',
    status: 200,
    run: async (emu) => emu.request({ method: 'GET', url: `/router/v1/video/media/${await finishedTask(emu)}/video.mp4` }),
  },
  { operation: 'video.media', name: 'an unknown task', status: 404, run: (emu) => emu.request({ method: 'GET', url: '/router/v1/video/media/123/video.mp4' }) },

  // Presets
  {
    operation: 'presets.chat.create',
    name: 'a preset from a chat body',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/presets/contract/chat/completions',
        { model: CHAT_MODEL, messages: [{ role: 'system', content: 'Be brief.' }], temperature: 0.7, reasoning: { effort: 'low' } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.chat.create',
    name: 'a temperature over 2',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/contract/chat/completions', { messages: [], temperature: 3 }, emu.keys.management),
  },
  {
    operation: 'presets.chat.create',
    name: 'a malformed body',
    status: 400,
    run: (emu) => malformed(emu, 'POST', '/api/v1/presets/contract/chat/completions', emu.keys.management),
  },
  ...authCases('presets.chat.create', (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/chat/completions', { messages: [] }, key), 'management'),
  {
    operation: 'presets.messages.create',
    name: 'a new version from a Messages body',
    status: 200,
    run: async (emu) =>
      send(
        emu,
        'POST',
        `/api/v1/presets/${await preset(emu)}/messages`,
        { model: MESSAGES_MODEL, max_tokens: 1024, system: 'Be brief.', messages: [], thinking: { type: 'enabled', budget_tokens: 64 } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.messages.create',
    name: 'no model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/contract/messages', { messages: [] }, emu.keys.management),
  },
  ...authCases(
    'presets.messages.create',
    (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/messages', { model: MESSAGES_MODEL, messages: [] }, key),
    'management',
  ),
  {
    operation: 'presets.responses.create',
    name: 'a preset from a Responses body',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/presets/contract/responses',
        { model: CHAT_MODEL, instructions: 'Be brief.', input: 'x', max_output_tokens: 100, reasoning: { effort: 'low', summary: 'auto' } },
        emu.keys.management,
      ),
  },
  {
    operation: 'presets.responses.create',
    name: 'a slug with capitals',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/presets/Contract/responses', { model: CHAT_MODEL }, emu.keys.management),
  },
  ...authCases('presets.responses.create', (emu, key) => send(emu, 'POST', '/api/v1/presets/contract/responses', {}, key), 'management'),
  {
    operation: 'presets.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await preset(emu), get(emu, '/api/v1/presets?offset=0&limit=10', emu.keys.standard)),
  },
  { operation: 'presets.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/presets?limit=101', emu.keys.management) },
  ...authCases('presets.list', (emu, key) => get(emu, '/api/v1/presets', key), 'any'),
  { operation: 'presets.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}`, emu.keys.management) },
  { operation: 'presets.get', name: 'an unknown slug', status: 404, run: (emu) => get(emu, '/api/v1/presets/nope', emu.keys.management) },
  ...authCases('presets.get', (emu, key) => get(emu, '/api/v1/presets/nope', key), 'any'),
  {
    operation: 'presets.versions.list',
    name: 'the versions',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions`, emu.keys.standard),
  },
  { operation: 'presets.versions.list', name: 'an unknown slug', status: 404, run: (emu) => get(emu, '/api/v1/presets/nope/versions', emu.keys.management) },
  ...authCases('presets.versions.list', (emu, key) => get(emu, '/api/v1/presets/nope/versions', key), 'any'),
  {
    operation: 'presets.versions.get',
    name: 'one',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions/1`, emu.keys.management),
  },
  {
    operation: 'presets.versions.get',
    name: 'an unknown version',
    status: 404,
    run: async (emu) => get(emu, `/api/v1/presets/${await preset(emu)}/versions/9`, emu.keys.management),
  },
  {
    operation: 'presets.versions.get',
    name: 'a version that is no number',
    status: 400,
    run: (emu) => get(emu, '/api/v1/presets/contract/versions/latest', emu.keys.management),
  },
  ...authCases('presets.versions.get', (emu, key) => get(emu, '/api/v1/presets/nope/versions/1', key), 'any'),
  {
    operation: 'chat.create',
    name: 'a model named by a preset',
    status: 200,
    run: async (emu) =>
      send(emu, 'POST', '/api/v1/chat/completions', { model: `@preset/${await preset(emu)}`, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
  {
    operation: 'chat.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/chat/completions', { model: '@preset/nope', messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },
  {
    operation: 'responses.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/responses', { model: `${CHAT_MODEL}@preset/nope`, input: 'x' }, emu.keys.standard),
  },
  {
    operation: 'messages.create',
    name: 'an unknown preset',
    status: 404,
    run: (emu) =>
      send(emu, 'POST', '/api/v1/messages', { model: '@preset/nope', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] }, emu.keys.standard),
  },

  // Key provisioning and OAuth PKCE
  {
    operation: 'keys.create',
    name: 'a key with every field',
    status: 201,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/keys',
        { name: 'contract', limit: 5, limit_reset: 'monthly', include_byok_in_limit: true, expires_at: '2027-12-31T23:59:59Z' },
        emu.keys.management,
      ),
  },
  { operation: 'keys.create', name: 'no name', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/keys', { limit: 5 }, emu.keys.management) },
  {
    operation: 'keys.create',
    name: 'an expiry in another time zone',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/keys', { name: 'x', expires_at: '2027-12-31T23:59:59+02:00' }, emu.keys.management),
  },
  ...authCases('keys.create', (emu, key) => send(emu, 'POST', '/api/v1/keys', { name: 'x' }, key), 'management'),
  {
    operation: 'keys.create',
    name: 'a standard key as the real service answers it (--wrong-key-kind-status 403)',
    status: 403,
    options: { wrongKeyKindStatus: 403 },
    run: (emu) => send(emu, 'POST', '/api/v1/keys', { name: 'x' }, emu.keys.standard),
  },
  {
    operation: 'keys.get',
    name: 'a key made by POST /keys',
    status: 200,
    run: async (emu) =>
      get(emu, `/api/v1/keys/${(await send(emu, 'POST', '/api/v1/keys', { name: 'x' }, emu.keys.management)).body.data.hash}`, emu.keys.management),
  },
  { operation: 'keys.get', name: 'an unknown hash', status: 404, run: (emu) => get(emu, `/api/v1/keys/${'0'.repeat(64)}`, emu.keys.management) },
  ...authCases('keys.get', (emu, key) => get(emu, `/api/v1/keys/${'0'.repeat(64)}`, key), 'management'),
  {
    operation: 'keys.delete',
    name: 'a seeded key',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/keys/${(await firstKey(emu)).hash}`, undefined, emu.keys.management),
  },
  {
    operation: 'keys.delete',
    name: 'an unknown hash',
    status: 404,
    run: (emu) => send(emu, 'DELETE', `/api/v1/keys/${'0'.repeat(64)}`, undefined, emu.keys.management),
  },
  ...authCases('keys.delete', (emu, key) => send(emu, 'DELETE', `/api/v1/keys/${'0'.repeat(64)}`, undefined, key), 'management'),
  {
    operation: 'oauth.code.create',
    name: 'an S256 code with a limit',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/auth/keys/code',
        {
          callback_url: 'https://myapp.com/auth/callback',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          limit: 100,
        },
        emu.keys.management,
      ),
  },
  {
    operation: 'oauth.code.create',
    name: 'an http callback off localhost',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/auth/keys/code', { callback_url: 'http://myapp.com/auth/callback' }, emu.keys.management),
  },
  {
    operation: 'oauth.code.create',
    name: 'an unknown challenge method',
    status: 400,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/auth/keys/code',
        { callback_url: 'https://myapp.com/cb', code_challenge: 'x', code_challenge_method: 'S512' },
        emu.keys.management,
      ),
  },
  {
    operation: 'oauth.code.create',
    name: 'a 101st code waiting',
    status: 409,
    run: async (emu) => {
      for (let i = 0; i < 100; i++) await send(emu, 'POST', '/api/v1/auth/keys/code', { callback_url: 'https://myapp.com/cb' }, emu.keys.management)
      return send(emu, 'POST', '/api/v1/auth/keys/code', { callback_url: 'https://myapp.com/cb' }, emu.keys.management)
    },
  },
  ...authCases('oauth.code.create', (emu, key) => send(emu, 'POST', '/api/v1/auth/keys/code', { callback_url: 'https://myapp.com/cb' }, key), 'management'),
  {
    operation: 'oauth.code.create',
    name: 'a standard key as --wrong-key-kind-status 403 answers it',
    status: 403,
    options: { wrongKeyKindStatus: 403 },
    run: (emu) => send(emu, 'POST', '/api/v1/auth/keys/code', { callback_url: 'https://myapp.com/cb' }, emu.keys.standard),
  },
  {
    operation: 'oauth.code.exchange',
    name: 'a plain code with its verifier, without a key',
    status: 200,
    run: async (emu) => {
      const body = { callback_url: 'http://localhost:3000/cb', code_challenge: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', code_challenge_method: 'plain' }
      const code = (await send(emu, 'POST', '/api/v1/auth/keys/code', body, emu.keys.management)).body.data.id
      return send(emu, 'POST', '/api/v1/auth/keys', { code, code_verifier: body.code_challenge, code_challenge_method: 'plain' })
    },
  },
  { operation: 'oauth.code.exchange', name: 'no code', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/auth/keys', { code_verifier: 'x' }) },
  {
    operation: 'oauth.code.exchange',
    name: 'an unknown code',
    status: 403,
    run: (emu) => send(emu, 'POST', '/api/v1/auth/keys', { code: 'auth_code_abc123def456' }),
  },
  {
    operation: 'oauth.code.exchange',
    name: 'a wrong verifier',
    status: 403,
    run: async (emu) => {
      const body = { callback_url: 'https://myapp.com/cb', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }
      const code = (await send(emu, 'POST', '/api/v1/auth/keys/code', body, emu.keys.management)).body.data.id
      return send(emu, 'POST', '/api/v1/auth/keys', { code, code_verifier: 'not-the-verifier' })
    },
  },
  ...workspaceCases(),
  ...byokAndObservabilityCases(),
]

/** The workspaces operations: each valid, refused for its input, on an unknown workspace, and without the right key. */
function workspaceCases(): Case[] {
  const ws = '/api/v1/workspaces'
  const unknown = `${ws}/00000000-0000-4000-8000-000000000000`
  const contract = {
    name: 'Contract',
    slug: 'contract',
    description: 'd',
    default_text_model: CHAT_MODEL,
    default_image_model: 'openai/dall-e-3',
    default_provider_sort: 'price',
  }
  const created = async (emu: TestEmulator) => (await send(emu, 'POST', ws, contract, emu.keys.management)).body.data.id as string
  const member = async (emu: TestEmulator) => (await firstKey(emu)).creator_user_id
  const put = (emu: TestEmulator, url: string, body: unknown, key?: string) => emu.send('PUT', url, body, key)
  const budget = (emu: TestEmulator, interval: string, limit_usd: number) => put(emu, `${ws}/default/budgets/${interval}`, { limit_usd }, emu.keys.management)
  const full = {
    name: 'Full',
    slug: 'full',
    io_logging_api_key_ids: [1],
    io_logging_sampling_rate: 0.5,
    is_data_discount_logging_enabled: false,
    is_observability_broadcast_enabled: true,
    is_observability_io_logging_enabled: true,
  }
  return [
    {
      operation: 'workspaces.list',
      name: 'a page',
      status: 200,
      run: async (emu) => (await created(emu), get(emu, `${ws}?offset=1&limit=1`, emu.keys.management)),
    },
    { operation: 'workspaces.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, `${ws}?limit=101`, emu.keys.management) },
    ...authCases('workspaces.list', (emu, key) => get(emu, ws, key), 'management'),
    { operation: 'workspaces.create', name: 'every field', status: 201, run: (emu) => send(emu, 'POST', ws, full, emu.keys.management) },
    {
      operation: 'workspaces.create',
      name: 'default models and a description',
      status: 201,
      run: (emu) => send(emu, 'POST', ws, contract, emu.keys.management),
    },
    {
      operation: 'workspaces.create',
      name: 'a bad slug',
      status: 400,
      run: (emu) => send(emu, 'POST', ws, { name: 'x', slug: 'Not A Slug' }, emu.keys.management),
    },
    {
      operation: 'workspaces.create',
      name: 'a taken slug',
      status: 400,
      run: (emu) => send(emu, 'POST', ws, { name: 'x', slug: 'default' }, emu.keys.management),
    },
    { operation: 'workspaces.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', ws, emu.keys.management) },
    ...authCases('workspaces.create', (emu, key) => send(emu, 'POST', ws, { name: 'x', slug: 'x' }, key), 'management'),
    { operation: 'workspaces.get', name: 'by id', status: 200, run: async (emu) => get(emu, `${ws}/${await created(emu)}`, emu.keys.management) },
    { operation: 'workspaces.get', name: 'by slug', status: 200, run: (emu) => get(emu, `${ws}/default`, emu.keys.management) },
    { operation: 'workspaces.get', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, unknown, emu.keys.management) },
    ...authCases('workspaces.get', (emu, key) => get(emu, `${ws}/default`, key), 'management'),
    {
      operation: 'workspaces.update',
      name: 'a new name and settings',
      status: 200,
      run: async (emu) =>
        send(emu, 'PATCH', `${ws}/${await created(emu)}`, { name: 'Renamed', description: null, io_logging_api_key_ids: [3] }, emu.keys.management),
    },
    {
      operation: 'workspaces.update',
      name: 'a sampling rate over 1',
      status: 400,
      run: (emu) => send(emu, 'PATCH', `${ws}/default`, { io_logging_sampling_rate: 2 }, emu.keys.management),
    },
    { operation: 'workspaces.update', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'PATCH', `${ws}/default`, emu.keys.management) },
    {
      operation: 'workspaces.update',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'PATCH', unknown, { name: 'x' }, emu.keys.management),
    },
    ...authCases('workspaces.update', (emu, key) => send(emu, 'PATCH', `${ws}/default`, { name: 'x' }, key), 'management'),
    {
      operation: 'workspaces.delete',
      name: 'a new workspace',
      status: 200,
      run: async (emu) => send(emu, 'DELETE', `${ws}/${await created(emu)}`, undefined, emu.keys.management),
    },
    {
      operation: 'workspaces.delete',
      name: 'the default workspace',
      status: 403,
      run: (emu) => send(emu, 'DELETE', `${ws}/default`, undefined, emu.keys.management),
    },
    { operation: 'workspaces.delete', name: 'an unknown workspace', status: 404, run: (emu) => send(emu, 'DELETE', unknown, undefined, emu.keys.management) },
    ...authCases('workspaces.delete', (emu, key) => send(emu, 'DELETE', unknown, undefined, key), 'management'),
    {
      operation: 'workspaces.budgets.list',
      name: 'two budgets',
      status: 200,
      run: async (emu) => (await budget(emu, 'monthly', 100), await budget(emu, 'lifetime', 500), get(emu, `${ws}/default/budgets`, emu.keys.management)),
    },
    { operation: 'workspaces.budgets.list', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, `${unknown}/budgets`, emu.keys.management) },
    ...authCases('workspaces.budgets.list', (emu, key) => get(emu, `${ws}/default/budgets`, key), 'management'),
    {
      operation: 'workspaces.budgets.get',
      name: 'a lifetime budget',
      status: 200,
      run: async (emu) => (await budget(emu, 'lifetime', 500), get(emu, `${ws}/default/budgets/lifetime`, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.get',
      name: 'an interval without one',
      status: 404,
      run: (emu) => get(emu, `${ws}/default/budgets/daily`, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.get',
      name: 'an unknown interval',
      status: 400,
      run: (emu) => get(emu, `${ws}/default/budgets/hourly`, emu.keys.management),
    },
    ...authCases('workspaces.budgets.get', (emu, key) => get(emu, `${ws}/default/budgets/daily`, key), 'management'),
    {
      operation: 'workspaces.budgets.set',
      name: 'a monthly budget with BYOK',
      status: 200,
      run: (emu) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 100, include_byok_in_budgets: true }, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'a zero limit',
      status: 400,
      run: (emu) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 0 }, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'a daily limit above the monthly one',
      status: 400,
      run: async (emu) => (await budget(emu, 'monthly', 10), put(emu, `${ws}/default/budgets/daily`, { limit_usd: 20 }, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => put(emu, `${unknown}/budgets/monthly`, { limit_usd: 1 }, emu.keys.management),
    },
    ...authCases('workspaces.budgets.set', (emu, key) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 1 }, key), 'management'),
    {
      operation: 'workspaces.budgets.delete',
      name: 'a budget',
      status: 200,
      run: async (emu) => (await budget(emu, 'weekly', 5), send(emu, 'DELETE', `${ws}/default/budgets/weekly`, undefined, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.delete',
      name: 'an unknown interval',
      status: 400,
      run: (emu) => send(emu, 'DELETE', `${ws}/default/budgets/hourly`, undefined, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.delete',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'DELETE', `${unknown}/budgets/weekly`, undefined, emu.keys.management),
    },
    ...authCases('workspaces.budgets.delete', (emu, key) => send(emu, 'DELETE', `${ws}/default/budgets/weekly`, undefined, key), 'management'),
    {
      operation: 'workspaces.members.list',
      name: "the default workspace's",
      status: 200,
      run: (emu) => get(emu, `${ws}/default/members?offset=1&limit=1`, emu.keys.management),
    },
    {
      operation: 'workspaces.members.list',
      name: "a new workspace's",
      status: 200,
      run: async (emu) => get(emu, `${ws}/${await created(emu)}/members`, emu.keys.management),
    },
    {
      operation: 'workspaces.members.list',
      name: 'a limit over 100',
      status: 400,
      run: (emu) => get(emu, `${ws}/default/members?limit=101`, emu.keys.management),
    },
    { operation: 'workspaces.members.list', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, `${unknown}/members`, emu.keys.management) },
    ...authCases('workspaces.members.list', (emu, key) => get(emu, `${ws}/default/members`, key), 'management'),
    {
      operation: 'workspaces.members.add',
      name: 'a member',
      status: 200,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/add`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.add',
      name: 'a stranger',
      status: 400,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/add`, { user_ids: ['user_nobody'] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.add',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'POST', `${unknown}/members/add`, { user_ids: ['user_nobody'] }, emu.keys.management),
    },
    ...authCases('workspaces.members.add', (emu, key) => send(emu, 'POST', `${unknown}/members/add`, { user_ids: ['x'] }, key), 'management'),
    {
      operation: 'workspaces.members.remove',
      name: 'a member',
      status: 200,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/remove`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.remove',
      name: 'from the default workspace',
      status: 400,
      run: async (emu) => send(emu, 'POST', `${ws}/default/members/remove`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.remove',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'POST', `${unknown}/members/remove`, { user_ids: ['x'] }, emu.keys.management),
    },
    ...authCases('workspaces.members.remove', (emu, key) => send(emu, 'POST', `${unknown}/members/remove`, { user_ids: ['x'] }, key), 'management'),
    {
      operation: 'embeddings.create',
      name: "the workspace's budget spent",
      status: 402,
      run: async (emu) => (
        await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend' }, emu.keys.standard),
        await budget(emu, 'daily', 1e-9),
        send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'over' }, emu.keys.standard)
      ),
    },
    {
      operation: 'chat.create',
      name: "the workspace's budget spent",
      status: 402,
      run: async (emu) => (
        await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend' }, emu.keys.standard),
        await budget(emu, 'daily', 1e-9),
        send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] }, emu.keys.standard)
      ),
    },
  ]
}

/** The problems of one answer against where its operation's answers are checked. */
/** BYOK credentials and observability destinations: each operation valid, refused for its input, on an unknown id, and without the right key. */
function byokAndObservabilityCases(): Case[] {
  const unknown = '00000000-0000-4000-8000-000000000000'
  const credential = async (emu: TestEmulator) =>
    (await send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'sk-proj-contract-0123456789' }, emu.keys.management)).body.data.id as string
  const destinations = '/api/v1/observability/destinations'
  const langfuse = { type: 'langfuse', name: 'Contract', config: { publicKey: 'pk-lf-0123456789-abcd', secretKey: 'sk-lf-0123456789-abcd' } }
  const destination = async (emu: TestEmulator) => (await send(emu, 'POST', destinations, langfuse, emu.keys.management)).body.data.id as string
  const m = (emu: TestEmulator) => emu.keys.management
  return [
    {
      operation: 'byok.list',
      name: 'the list',
      status: 200,
      run: async (emu) => (await credential(emu), get(emu, '/api/v1/byok?provider=openai&limit=5', m(emu))),
    },
    { operation: 'byok.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/byok?limit=101', m(emu)) },
    ...authCases('byok.list', (emu, key) => get(emu, '/api/v1/byok', key), 'management'),
    {
      operation: 'byok.create',
      name: 'every field',
      status: 201,
      run: async (emu) =>
        send(
          emu,
          'POST',
          '/api/v1/byok',
          {
            provider: 'anthropic',
            key: 'sk-ant-contract-0123456789',
            name: 'Contract',
            disabled: false,
            is_fallback: true,
            allowed_models: ['anthropic/claude-sonnet-4'],
            allowed_api_key_hashes: [(await firstKey(emu)).hash],
            allowed_user_ids: null,
          },
          m(emu),
        ),
    },
    { operation: 'byok.create', name: 'no key', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai' }, m(emu)) },
    {
      operation: 'byok.create',
      name: 'an unknown provider',
      status: 400,
      run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'x', key: 'k' }, m(emu)),
    },
    { operation: 'byok.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/byok', m(emu)) },
    {
      operation: 'byok.create',
      name: 'a workspace not of the account',
      status: 404,
      run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'k', workspace_id: unknown }, m(emu)),
    },
    ...authCases('byok.create', (emu, key) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'k' }, key), 'management'),
    { operation: 'byok.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/byok/${await credential(emu)}`, m(emu)) },
    { operation: 'byok.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `/api/v1/byok/${unknown}`, m(emu)) },
    ...authCases('byok.get', (emu, key) => get(emu, `/api/v1/byok/${unknown}`, key), 'management'),
    {
      operation: 'byok.update',
      name: 'a new key and name',
      status: 200,
      run: async (emu) =>
        send(emu, 'PATCH', `/api/v1/byok/${await credential(emu)}`, { key: 'sk-proj-rotated-0123456789', name: 'Rotated', disabled: true }, m(emu)),
    },
    {
      operation: 'byok.update',
      name: 'an empty key',
      status: 400,
      run: async (emu) => send(emu, 'PATCH', `/api/v1/byok/${await credential(emu)}`, { key: '' }, m(emu)),
    },
    { operation: 'byok.update', name: 'an unknown id', status: 404, run: (emu) => send(emu, 'PATCH', `/api/v1/byok/${unknown}`, { name: 'x' }, m(emu)) },
    ...authCases('byok.update', (emu, key) => send(emu, 'PATCH', `/api/v1/byok/${unknown}`, { name: 'x' }, key), 'management'),
    { operation: 'byok.delete', name: 'one', status: 200, run: async (emu) => send(emu, 'DELETE', `/api/v1/byok/${await credential(emu)}`, undefined, m(emu)) },
    { operation: 'byok.delete', name: 'an unknown id', status: 404, run: (emu) => send(emu, 'DELETE', `/api/v1/byok/${unknown}`, undefined, m(emu)) },
    ...authCases('byok.delete', (emu, key) => send(emu, 'DELETE', `/api/v1/byok/${unknown}`, undefined, key), 'management'),

    {
      operation: 'observability.destinations.list',
      name: 'the list',
      status: 200,
      run: async (emu) => (await destination(emu), get(emu, `${destinations}?offset=0&limit=5`, m(emu))),
    },
    { operation: 'observability.destinations.list', name: 'a limit of 0', status: 400, run: (emu) => get(emu, `${destinations}?limit=0`, m(emu)) },
    ...authCases('observability.destinations.list', (emu, key) => get(emu, destinations, key), 'management'),
    {
      operation: 'observability.destinations.create',
      name: 'a langfuse destination',
      status: 201,
      run: (emu) => send(emu, 'POST', destinations, langfuse, m(emu)),
    },
    {
      operation: 'observability.destinations.create',
      name: 'a webhook with every field',
      status: 201,
      run: (emu) =>
        send(
          emu,
          'POST',
          destinations,
          {
            type: 'webhook',
            name: 'Hook',
            config: { url: 'https://hooks.example.com/traces', method: 'POST', headers: { Authorization: 'Bearer 0123456789abcdef' } },
            enabled: false,
            privacy_mode: true,
            broadcast_generation_cost: true,
            sampling_rate: 0.25,
            filter_rules: { enabled: true, groups: [{ logic: 'or', rules: [{ field: 'model', operator: 'contains', value: 'gpt' }] }] },
          },
          m(emu),
        ),
    },
    {
      operation: 'observability.destinations.create',
      name: 'a webhook without its url',
      status: 400,
      run: (emu) => send(emu, 'POST', destinations, { type: 'webhook', name: 'x', config: {} }, m(emu)),
    },
    { operation: 'observability.destinations.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', destinations, m(emu)) },
    {
      operation: 'observability.destinations.create',
      name: 'a sixth of a type',
      status: 409,
      run: async (emu) => {
        for (let i = 0; i < 5; i++) await send(emu, 'POST', destinations, langfuse, m(emu))
        return send(emu, 'POST', destinations, langfuse, m(emu))
      },
    },
    {
      operation: 'observability.destinations.create',
      name: 'a workspace not of the account',
      status: 404,
      run: (emu) => send(emu, 'POST', destinations, { ...langfuse, workspace_id: unknown }, m(emu)),
    },
    ...authCases('observability.destinations.create', (emu, key) => send(emu, 'POST', destinations, langfuse, key), 'management'),
    {
      operation: 'observability.destinations.get',
      name: 'one',
      status: 200,
      run: async (emu) => get(emu, `${destinations}/${await destination(emu)}`, m(emu)),
    },
    { operation: 'observability.destinations.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `${destinations}/${unknown}`, m(emu)) },
    ...authCases('observability.destinations.get', (emu, key) => get(emu, `${destinations}/${unknown}`, key), 'management'),
    {
      operation: 'observability.destinations.update',
      name: 'a new name and secret',
      status: 200,
      run: async (emu) =>
        send(
          emu,
          'PATCH',
          `${destinations}/${await destination(emu)}`,
          { name: 'Renamed', enabled: false, config: { secretKey: 'sk-lf-rotated-0123456789' } },
          m(emu),
        ),
    },
    {
      operation: 'observability.destinations.update',
      name: 'a sampling rate over 1',
      status: 400,
      run: async (emu) => send(emu, 'PATCH', `${destinations}/${await destination(emu)}`, { sampling_rate: 2 }, m(emu)),
    },
    {
      operation: 'observability.destinations.update',
      name: 'an unknown id',
      status: 404,
      run: (emu) => send(emu, 'PATCH', `${destinations}/${unknown}`, { name: 'x' }, m(emu)),
    },
    ...authCases('observability.destinations.update', (emu, key) => send(emu, 'PATCH', `${destinations}/${unknown}`, { name: 'x' }, key), 'management'),
    {
      operation: 'observability.destinations.delete',
      name: 'one',
      status: 200,
      run: async (emu) => send(emu, 'DELETE', `${destinations}/${await destination(emu)}`, undefined, m(emu)),
    },
    {
      operation: 'observability.destinations.delete',
      name: 'an unknown id',
      status: 404,
      run: (emu) => send(emu, 'DELETE', `${destinations}/${unknown}`, undefined, m(emu)),
    },
    ...authCases('observability.destinations.delete', (emu, key) => send(emu, 'DELETE', `${destinations}/${unknown}`, undefined, key), 'management'),
  ]
}

function problemsOf(c: Case, answer: Answer): string[] {
  const real = REAL[c.operation]
  if (!real) return [`no real counterpart is named for ${c.operation}`]
  if ('own' in real) return []
  const problems = 'gateway' in real ? gatewayProblems(real.gateway[0], real.gateway[1], answer) : vendorProblems(real.vendor, answer)
  if (problems.length > 0 && DELIBERATE[`${c.operation} ${answer.status}`]) return []
  return problems
}

describe.skipIf(!hasRealDocument)('the real contract (needs ../shared/docs/reference beside the checkout)', () => {
  it.each(CASES.map((c) => [`${c.operation}: ${c.name} -> ${c.status}`, c] as const))('%s', async (_title, c) => {
    const emu = await testEmulator(c.options)
    const answer = await c.run(emu)
    expect(answer.status, JSON.stringify(answer.body)).toBe(c.status)
    expect(problemsOf(c, answer)).toEqual([])
  })

  it('covers every operation the emulator serves under /api/v1 and /router/v1, each with a success and a failure', async () => {
    const emu = await testEmulator()
    const doc = (await emu.get('/_emulator/api/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> }
    const served = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/') || path.startsWith('/router/v1/'))
      .flatMap(([, methods]) => Object.values(methods).map((op) => op.operationId))
    expect(served.length).toBeGreaterThan(30)
    for (const operation of served) {
      expect(REAL[operation], operation).toBeDefined()
      const statuses = CASES.filter((c) => c.operation === operation).map((c) => c.status)
      expect(
        statuses.some((s) => s >= 200 && s < 300),
        `${operation} has a success case`,
      ).toBe(true)
      expect(
        statuses.some((s) => s >= 400),
        `${operation} has a failure case`,
      ).toBe(true)
    }
  })

  it('serves every operation of the real document, each checked by a passing case here', () => {
    const checked = new Set(Object.values(REAL).flatMap((real) => ('gateway' in real ? [`${real.gateway[0]} ${real.gateway[1]}`] : [])))
    const operations = realOperations()
    expect(operations).toHaveLength(97)
    expect(operations.filter((operation) => !checked.has(operation))).toEqual([])
  })

  it('lists a reason for each deliberate difference, and only differences that occur', () => {
    for (const key of Object.keys(DELIBERATE)) {
      const [operation, status] = key.split(' ')
      expect(
        CASES.some((c) => c.operation === operation && String(c.status) === status),
        key,
      ).toBe(true)
    }
  })

  it("streams chunks the real document's ChatStreamChunk describes: text, tool calls, usage and an error chunk", async () => {
    const emu = await testEmulator()
    const chunksOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/chat/completions',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }], stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .filter((event) => event.startsWith('data: {'))
        .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>)
    }
    const text = await chunksOf({ n: 2 })
    const tools = await chunksOf({
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' } } } } }],
      tool_choice: 'required',
    })
    const images = await chunksOf({ model: 'google/gemini-2.5-flash-image', modalities: ['image', 'text'] })
    expect(images.some((chunk) => (chunk.choices as Array<{ delta: Record<string, unknown> }>)[0]?.delta.images)).toBe(true)
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 3 } } })
    const broken = await chunksOf({})
    expect(broken.at(-1)).toHaveProperty('error')
    for (const chunk of [...text, ...tools, ...broken, ...images]) expect(componentProblems('ChatStreamChunk', chunk), JSON.stringify(chunk)).toEqual([])
  })

  it("streams the events the real document's StreamEvents describes: text, reasoning, function calls, incomplete and a failure", async () => {
    const emu = await testEmulator()
    const eventsOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/responses',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: CHAT_MODEL, input: 'hello', stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .map((event) => event.split('\n').find((line) => line.startsWith('data: {')))
        .filter((line) => line !== undefined)
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    }
    const reasoning = await eventsOf({ model: 'openai/o4-mini', reasoning: { effort: 'low', summary: 'detailed' }, max_output_tokens: 60 })
    expect(reasoning.at(-1)!.type).toBe('response.incomplete')
    const tools = await eventsOf({
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' } } } }],
      tool_choice: 'required',
    })
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'responses.create' }, action: { status: 502, stream: { after_chunks: 5 } } })
    const broken = await eventsOf({})
    expect(broken.at(-1)!.type).toBe('response.failed')
    for (const event of [...reasoning, ...tools, ...broken]) expect(componentProblems('StreamEvents', event), JSON.stringify(event)).toEqual([])
  })

  it("streams the events the real document's MessagesStreamEvents describes: thinking, text, a tool call, an error event", async () => {
    const emu = await testEmulator()
    const eventsOf = async (body: Record<string, unknown>) => {
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: { model: MESSAGES_MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'hello' }], stream: true, ...body },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
      return res.body
        .split('\n\n')
        .filter((block) => block.startsWith('event: '))
        .map((block) => {
          const [event, data] = block.split('\n') as [string, string]
          return { event: event.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) as Record<string, unknown> }
        })
    }
    const thought = await eventsOf({ thinking: { type: 'enabled', budget_tokens: 64 } })
    const tools = await eventsOf({
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } } } }],
      tool_choice: { type: 'any' },
    })
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'messages.create' }, action: { status: 529, stream: { after_chunks: 3 } } })
    const broken = await eventsOf({})
    expect(broken.at(-1)!.event).toBe('error')
    for (const event of [...thought, ...tools, ...broken]) {
      expect(componentProblems('MessagesStreamingResponse', event), JSON.stringify(event)).toEqual([])
      expect(event.data.type).toBe(event.event)
    }
  })

  it("names providers and parameters only from the real document's enums", async () => {
    const emu = await testEmulator()
    const providers = new Set(realEnum('ProviderName'))
    const parameters = new Set(realEnum('Parameter'))
    const models = (await emu.get('/api/v1/models?output_modalities=all')).body.data as Array<{ id: string; supported_parameters: string[] }>
    for (const model of models) {
      for (const p of model.supported_parameters) expect(parameters.has(p), `${model.id}: ${p}`).toBe(true)
      const endpoints = (await emu.get(`/api/v1/models/${model.id}/endpoints`)).body.data.endpoints as Array<{ provider_name: string }>
      for (const e of endpoints) expect(providers.has(e.provider_name), `${model.id}: ${e.provider_name}`).toBe(true)
    }
    const zdr = (await emu.get('/api/v1/endpoints/zdr')).body.data as Array<{ provider_name: string }>
    for (const e of zdr) expect(providers.has(e.provider_name), e.provider_name).toBe(true)
  })
})
