// The keys API through both generations of the official TypeScript client, over real HTTP.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { OpenRouter as LegacyOpenRouter } from 'openrouter-sdk-legacy'
import * as legacyErrors from 'openrouter-sdk-legacy/models/errors'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

describe('@openrouter/sdk 1.x', () => {
  it('lists keys, with and without disabled ones, and pages', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1` })
    const res = await client.apiKeys.list()
    expect(res.data.map((k) => k.name)).toContain('Default key')
    expect(res.data).toHaveLength(5)
    const key = res.data.find((k) => k.hash === sha256Hex(emu.keys.standard))!
    expect(key).toMatchObject({ disabled: false, limit: null, limitRemaining: null, usage: 0, includeByokInLimit: false })
    expect(key.creatorUserId).toMatch(/^user_/)
    const all = await client.apiKeys.list({ includeDisabled: true, offset: 1 })
    expect(all.data).toHaveLength(5)
    expect(all.data.at(-1)!.disabled).toBe(true)
  })

  it('updates a key', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1` })
    const hash = sha256Hex(emu.keys.standard)
    const res = await client.apiKeys.update({
      hash,
      requestBody: { name: 'From the SDK', limit: 7.5, limitReset: 'daily', includeByokInLimit: true, disabled: false },
    })
    expect(res.data).toMatchObject({ hash, name: 'From the SDK', limit: 7.5, limitRemaining: 7.5, limitReset: 'daily', includeByokInLimit: true })
    expect(res.data.updatedAt).toBe('2026-03-04T10:00:00.000Z')
  })

  it('reads the calling key with apiKeys.getCurrentKeyMetadata, usage moving with what it is billed', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const before = await client.apiKeys.getCurrentKeyMetadata()
    expect(before.data).toMatchObject({
      isManagementKey: false,
      isProvisioningKey: false,
      limit: null,
      limitRemaining: null,
      usage: 0,
      usageDaily: 0,
      byokUsage: 0,
      isFreeTier: false,
      organizationId: null,
      allowedDataRegions: ['global'],
      freeModelDailyRequests: { limit: 1000, remaining: 1000, used: 0 },
      rateLimit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
    })
    expect(before.data.workspaceId).toMatch(/^[0-9a-f-]{36}$/)
    expect(before.data.creatorUserId).toMatch(/^user_/)

    const embedded = await client.embeddings.generate({ requestBody: { model: 'openai/text-embedding-3-small', input: 'billed to this key' } })
    if (typeof embedded === 'string') throw new Error('expected JSON, got a stream')
    const after = await client.apiKeys.getCurrentKeyMetadata()
    expect(after.data.usage).toBeCloseTo(embedded.usage!.cost!, 9)
    expect(after.data.usageDaily).toBe(after.data.usage)

    // A management key with a limit and an expiry, which the client turns into a Date.
    const account = (await (await fetch(`${emu.url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string }> }
    const created = await fetch(`${emu.url}/_emulator/api/accounts/${account.data[0]!.id}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'management', limit: 4, limit_reset: 'weekly', expires_at: '2026-06-01T00:00:00Z' }),
    })
    const { key } = ((await created.json()) as { data: { key: string } }).data
    const management = new OpenRouter({ apiKey: key, serverURL: `${emu.url}/api/v1` })
    const meta = await management.apiKeys.getCurrentKeyMetadata()
    expect(meta.data).toMatchObject({ isManagementKey: true, limit: 4, limitRemaining: 4, limitReset: 'weekly' })
    expect(meta.data.expiresAt).toEqual(new Date('2026-06-01T00:00:00Z'))
  })

  it('surfaces 401, 404 and 400 as the typed errors', async () => {
    const emu = await listeningEmulator()
    const standard = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const unauthorized = await standard.apiKeys.list().catch((e: unknown) => e)
    expect(unauthorized).toBeInstanceOf(errors.UnauthorizedResponseError)
    expect((unauthorized as errors.UnauthorizedResponseError).error).toMatchObject({ code: 401, message: 'Only management keys can perform this operation' })

    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const notFound = await client.apiKeys.update({ hash: 'f'.repeat(64), requestBody: { name: 'x' } }).catch((e: unknown) => e)
    expect(notFound).toBeInstanceOf(errors.NotFoundResponseError)
    expect((notFound as errors.NotFoundResponseError).statusCode).toBe(404)

    const bad = await client.apiKeys.update({ hash: sha256Hex(emu.keys.standard), requestBody: { limit: -3 } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error.message).toBe('Field `limit` must be >= 0')
  })
})

describe('@openrouter/sdk 1.x: provisioning and OAuth PKCE', () => {
  it('apiKeys.create answers the key once; get and delete by hash; the deleted key is refused', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const created = await client.apiKeys.create({
      requestBody: { name: 'Customer 7', limit: 2, limitReset: 'monthly', includeByokInLimit: true, expiresAt: new Date('2027-01-01T00:00:00Z') },
    })
    expect(created.key).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/)
    expect(created.data).toMatchObject({ name: 'Customer 7', limit: 2, limitRemaining: 2, limitReset: 'monthly', includeByokInLimit: true, usage: 0 })
    expect(created.data.hash).toBe(sha256Hex(created.key))
    expect(created.data.expiresAt).toEqual(new Date('2027-01-01T00:00:00Z'))

    const customer = new OpenRouter({ apiKey: created.key, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const embedded = await customer.embeddings.generate({ requestBody: { model: 'openai/text-embedding-3-small', input: 'first call' } })
    if (typeof embedded === 'string') throw new Error('expected JSON, got a stream')
    const got = await client.apiKeys.get({ hash: created.data.hash })
    expect(got.data.usage).toBeCloseTo(embedded.usage!.cost!, 9)

    expect(await client.apiKeys.delete({ hash: created.data.hash })).toEqual({ deleted: true })
    const refused = await customer.apiKeys.getCurrentKeyMetadata().catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(errors.UnauthorizedResponseError)
    expect((refused as errors.UnauthorizedResponseError).error.message).toBe('User not found.')
    const gone = await client.apiKeys.get({ hash: created.data.hash }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(errors.NotFoundResponseError)
    const bad = await client.apiKeys.create({ requestBody: { name: '' } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error.message).toBe('Field `name` must not be empty')
  })

  it('oAuth.createAuthCode and exchangeAuthCodeForAPIKey (S256), the exchange made by a client with no key', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const { codeChallenge, codeVerifier } = await client.oAuth.createSHA256CodeChallenge()
    const code = await client.oAuth.createAuthCode({
      requestBody: { callbackUrl: 'https://app.example/callback', codeChallenge, codeChallengeMethod: 'S256', limit: 4, keyLabel: 'From the SDK' },
    })
    expect(code.data.appId).toBeTypeOf('number')
    expect(code.data.createdAt).toBe('2026-03-04T10:00:00.000Z')

    const app = new OpenRouter({ serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const wrong = await app.oAuth
      .exchangeAuthCodeForAPIKey({ requestBody: { code: code.data.id, codeVerifier: 'x'.repeat(43), codeChallengeMethod: 'S256' } })
      .catch((e: unknown) => e)
    expect(wrong).toBeInstanceOf(errors.ForbiddenResponseError)
    expect((wrong as errors.ForbiddenResponseError).error.message).toBe('Invalid code_verifier: it does not match the code_challenge (S256)')

    const exchanged = await app.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: code.data.id, codeVerifier, codeChallengeMethod: 'S256' } })
    expect(exchanged.userId).toMatch(/^user_/)
    const user = new OpenRouter({ apiKey: exchanged.key, serverURL: `${emu.url}/api/v1` })
    expect((await user.apiKeys.getCurrentKeyMetadata()).data).toMatchObject({ isManagementKey: false, limit: 4, limitRemaining: 4 })

    const again = await app.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: code.data.id, codeVerifier } }).catch((e: unknown) => e)
    expect(again).toBeInstanceOf(errors.ForbiddenResponseError)
    const badCallback = await client.oAuth.createAuthCode({ requestBody: { callbackUrl: 'http://app.example/cb' } }).catch((e: unknown) => e)
    expect(badCallback).toBeInstanceOf(errors.BadRequestResponseError)
  })

  it('oAuth.createAuthorizationUrl points at the authorization page', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ serverURL: `${emu.url}/api/v1` })
    const { codeChallenge } = await client.oAuth.createSHA256CodeChallenge()
    const url = await client.oAuth.createAuthorizationUrl({ callbackUrl: 'http://localhost:3000/cb', codeChallenge, codeChallengeMethod: 'S256' })
    expect(url.startsWith(`${emu.url}/auth?`)).toBe(true)
    const page = await fetch(url, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.url.startsWith(`${emu.url}/_emulator/auth?`)).toBe(true)
    expect(await page.text()).toContain('Authorize <code>localhost:3000</code>')
  })
})

describe('@openrouter/sdk 0.11 (previous generation)', () => {
  it('lists and updates keys', async () => {
    const emu = await listeningEmulator()
    const client = new LegacyOpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1` })
    const list = await client.apiKeys.list({ includeDisabled: 'true', offset: '0' })
    expect(list.data).toHaveLength(6)
    const hash = sha256Hex(emu.keys.standard)
    const updated = await client.apiKeys.update({ hash, requestBody: { name: 'Legacy', limit: null, limitReset: null } })
    expect(updated.data).toMatchObject({ hash, name: 'Legacy', limit: null, limitReset: null })
  })

  it('reads the calling key with apiKeys.getCurrentKeyMetadata', async () => {
    const emu = await listeningEmulator()
    const client = new LegacyOpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1` })
    const res = await client.apiKeys.getCurrentKeyMetadata()
    expect(res.data).toMatchObject({ isManagementKey: false, limit: null, limitRemaining: null, usage: 0, rateLimit: { requests: -1 } })
    const unknown = new LegacyOpenRouter({ apiKey: 'sk-gw-v1-unknown', serverURL: `${emu.url}/api/v1` })
    expect(await unknown.apiKeys.getCurrentKeyMetadata().catch((e: unknown) => e)).toBeInstanceOf(legacyErrors.UnauthorizedResponseError)
  })

  it('surfaces a 401 for a missing key as the typed error', async () => {
    const emu = await listeningEmulator()
    const client = new LegacyOpenRouter({ apiKey: 'sk-gw-v1-unknown', serverURL: `${emu.url}/api/v1` })
    const err = await client.apiKeys.list().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(legacyErrors.UnauthorizedResponseError)
    expect((err as legacyErrors.UnauthorizedResponseError).error.message).toBe('User not found.')
  })
})
