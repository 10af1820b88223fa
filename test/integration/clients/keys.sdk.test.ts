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

  it('surfaces a 401 for a missing key as the typed error', async () => {
    const emu = await listeningEmulator()
    const client = new LegacyOpenRouter({ apiKey: 'sk-gw-v1-unknown', serverURL: `${emu.url}/api/v1` })
    const err = await client.apiKeys.list().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(legacyErrors.UnauthorizedResponseError)
    expect((err as legacyErrors.UnauthorizedResponseError).error.message).toBe('User not found.')
  })
})
