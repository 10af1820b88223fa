// OAuth PKCE: codes from POST /auth/keys/code, from the authorization page (GET /auth, the form's
// Authorize and Deny) and from the admin API, exchanged once at POST /auth/keys for a key of the
// account that authorized them; S256 and plain, expiry on the virtual clock, wrong verifiers, bad
// callbacks, and every bad input with its status and body.
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { startTestEmulator } from '../../../src/emulator/testing.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const S256 = createHash('sha256').update(VERIFIER).digest('base64url')
const CALLBACK = 'https://app.example/oauth/callback'
const EMBEDDINGS = { model: 'openai/text-embedding-3-small', input: 'hello' }
const badCallback = 'must be an https URL, or an http URL on localhost or 127.0.0.1 (any port)'
const badHost = 'must name its host with letters, digits, hyphens and dots (or an IP address)'

const createCode = (emu: TestEmulator, body: unknown, key: string | null = emu.keys.management, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/auth/keys/code',
    headers: { ...(key && { authorization: `Bearer ${key}` }), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })
const exchange = (emu: TestEmulator, body: unknown) => emu.send('POST', '/api/v1/auth/keys', body)
const embed = (emu: TestEmulator, key: string) => emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, key)
const form = (emu: TestEmulator, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/_emulator/auth',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  })

async function codeFor(emu: TestEmulator, body: Record<string, unknown> = {}): Promise<string> {
  const res = await createCode(emu, { callback_url: CALLBACK, code_challenge: S256, code_challenge_method: 'S256', ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}

const accounts = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data as Array<{ id: string; workspace_id: string }>

describe('POST /api/v1/auth/keys/code and POST /api/v1/auth/keys', () => {
  it('S256: a code for the caller account, exchanged with the verifier for a key that works at once', async () => {
    const emu = await testEmulator()
    const res = await createCode(emu, { callback_url: CALLBACK, code_challenge: S256, code_challenge_method: 'S256' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { id: expect.any(String), app_id: expect.any(Number), created_at: '2026-03-04T10:00:00.000Z' } })
    expect(Number.isInteger(res.body.data.app_id)).toBe(true)

    const exchanged = await exchange(emu, { code: res.body.data.id, code_verifier: VERIFIER, code_challenge_method: 'S256' })
    expect(exchanged.status).toBe(200)
    const management = emu.ctx.services.keys.byHash(sha256Hex(emu.keys.management))!
    expect(exchanged.body).toEqual({ key: expect.stringMatching(/^sk-gw-v1-[0-9a-f]{64}$/), user_id: management.creator_user_id })
    expect((await embed(emu, exchanged.body.key)).status).toBe(200)
    const view = (await emu.get(`/api/v1/keys/${sha256Hex(exchanged.body.key)}`, emu.keys.management)).body.data
    expect(view).toMatchObject({ name: 'app.example', limit: null, expires_at: null, creator_user_id: management.creator_user_id })
    expect(view.workspace_id).toBe((await accounts(emu))[0]!.workspace_id)
  })

  it('plain, and without any challenge (the code alone); the method may be left out of the exchange', async () => {
    const emu = await testEmulator()
    const plain = await codeFor(emu, { code_challenge: 'your-random-string', code_challenge_method: 'plain' })
    expect((await exchange(emu, { code: plain, code_verifier: 'your-random-string' })).status).toBe(200)
    // A challenge without a method is plain (RFC 7636).
    const defaulted = await codeFor(emu, { code_challenge: 'another-verifier', code_challenge_method: undefined })
    expect((await exchange(emu, { code: defaulted, code_verifier: 'another-verifier', code_challenge_method: 'plain' })).status).toBe(200)
    const bare = (await createCode(emu, { callback_url: CALLBACK })).body.data.id
    const res = await exchange(emu, { code: bare, code_challenge_method: null })
    expect(res.status).toBe(200)
    expect((await embed(emu, res.body.key)).status).toBe(200)
  })

  it("gives the key the code's terms: label, limit and its reset, expiry and workspace", async () => {
    const emu = await testEmulator()
    const workspace = (await emu.send('POST', '/api/v1/workspaces', { name: 'Apps', slug: 'apps' }, emu.keys.management)).body.data.id
    const code = await codeFor(emu, {
      key_label: 'My CLI',
      limit: 2.5,
      usage_limit_type: 'weekly',
      expires_at: '2026-04-01T00:00:00Z',
      workspace_id: workspace,
      spawn_agent: 'my-agent',
    })
    const { key } = (await exchange(emu, { code, code_verifier: VERIFIER })).body
    const view = (await emu.get(`/api/v1/keys/${sha256Hex(key)}?workspace_id=${workspace}`, emu.keys.management)).body.data
    expect(view).toMatchObject({
      name: 'My CLI',
      limit: 2.5,
      limit_remaining: 2.5,
      limit_reset: 'weekly',
      expires_at: '2026-04-01T00:00:00.000Z',
      workspace_id: workspace,
    })
    // Without a label, the app's title names the key.
    const titled = (await createCode(emu, { callback_url: 'http://localhost:5173/cb' }, emu.keys.management, { 'x-title': 'Acme Chat' })).body.data.id
    const named = (await exchange(emu, { code: titled })).body.key
    expect((await emu.get(`/api/v1/keys/${sha256Hex(named)}`, emu.keys.management)).body.data.name).toBe('Acme Chat')
  })

  it('a code is exchanged once: the second exchange is a 403 and makes no key', async () => {
    const emu = await testEmulator()
    const code = await codeFor(emu)
    expect((await exchange(emu, { code, code_verifier: VERIFIER })).status).toBe(200)
    const keys = emu.ctx.services.keys.forAccount((await accounts(emu))[0]!.id).length
    const again = await exchange(emu, { code, code_verifier: VERIFIER })
    expect(again.status).toBe(403)
    expect(again.body).toEqual({
      error: { code: 403, message: 'Authorization code already used: each code is exchanged for one key', metadata: { reason: 'code_used' } },
    })
    expect(emu.ctx.services.keys.forAccount((await accounts(emu))[0]!.id)).toHaveLength(keys)
  })

  it('a code lasts 10 minutes of the virtual clock', async () => {
    const emu = await testEmulator()
    const early = await codeFor(emu)
    const late = await codeFor(emu)
    await emu.clock.advance(10 * 60_000 - 1)
    expect((await exchange(emu, { code: early, code_verifier: VERIFIER })).status).toBe(200)
    await emu.clock.advance(1)
    const expired = await exchange(emu, { code: late, code_verifier: VERIFIER })
    expect(expired.status).toBe(403)
    expect(expired.body).toEqual({
      error: {
        code: 403,
        message: 'Authorization code expired at 2026-03-04T10:10:00.000Z: codes can be exchanged for 10 minutes; start the authorization again',
        metadata: { reason: 'code_expired', expired_at: '2026-03-04T10:10:00.000Z' },
      },
    })
    // Once expired codes are forgotten (at the next code), the code is simply unknown.
    await codeFor(emu)
    expect((await exchange(emu, { code: late, code_verifier: VERIFIER })).body.error.message).toBe('Invalid authorization code')
  })

  it('a wrong verifier is a 403 and leaves the code usable; a missing one, or another method, is a 400 naming the field', async () => {
    const emu = await testEmulator()
    const code = await codeFor(emu)
    const wrong = await exchange(emu, { code, code_verifier: 'not-the-verifier' })
    expect(wrong.status).toBe(403)
    expect(wrong.body).toEqual({
      error: {
        code: 403,
        message: 'Invalid code_verifier: it does not match the code_challenge (S256)',
        metadata: { reason: 'code_verifier_mismatch', method: 'S256' },
      },
    })
    // The challenge itself is not the verifier of an S256 code.
    expect((await exchange(emu, { code, code_verifier: S256 })).status).toBe(403)
    const missing = await exchange(emu, { code })
    expect(missing.body).toEqual({
      error: {
        code: 400,
        message: 'Field `code_verifier` is required: the code was created with a code_challenge',
        metadata: { field: 'code_verifier', location: 'body', issue: 'is required: the code was created with a code_challenge' },
      },
    })
    const method = await exchange(emu, { code, code_verifier: VERIFIER, code_challenge_method: 'plain' })
    expect(method.body).toEqual({
      error: {
        code: 400,
        message: 'Field `code_challenge_method` must be S256, the method the code was created with',
        metadata: { field: 'code_challenge_method', location: 'body', issue: 'must be S256, the method the code was created with' },
      },
    })
    expect((await exchange(emu, { code, code_verifier: VERIFIER })).status).toBe(200)
  })

  it('an unknown code is a 403', async () => {
    const emu = await testEmulator()
    const res = await exchange(emu, { code: 'auth_code_abc123def456', code_verifier: VERIFIER })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 403, message: 'Invalid authorization code', metadata: { reason: 'code_unknown' } } })
  })

  it('the exchange needs no key, and ignores one it is sent', async () => {
    const emu = await testEmulator()
    const code = await codeFor(emu)
    const res = await emu.send('POST', '/api/v1/auth/keys', { code, code_verifier: VERIFIER }, 'sk-gw-v1-whatever')
    expect(res.status).toBe(200)
  })

  it('creating a code needs a management key', async () => {
    const emu = await testEmulator()
    const standard = await createCode(emu, { callback_url: CALLBACK }, emu.keys.standard)
    expect(standard.status).toBe(401)
    expect(standard.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
    expect((await createCode(emu, { callback_url: CALLBACK }, null)).body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })

  it.each([['http://localhost:3000/callback'], ['http://127.0.0.1:8765/cb?state=xyz'], ['http://[::1]:9000/'], ['https://app.example:8443/cb#frag']])(
    'takes the callback %s',
    async (callback) => {
      const emu = await testEmulator()
      expect((await createCode(emu, { callback_url: callback })).status).toBe(200)
    },
  )

  it.each([
    [{}, 'callback_url', 'is required'],
    [{ callback_url: '' }, 'callback_url', 'must not be empty'],
    [{ callback_url: 'not a url' }, 'callback_url', 'must be an absolute URL (https://your.app/callback)'],
    [{ callback_url: 'http://app.example/cb' }, 'callback_url', badCallback],
    [{ callback_url: 'ftp://localhost/cb' }, 'callback_url', badCallback],
    [{ callback_url: 'javascript:alert(1)' }, 'callback_url', badCallback],
    [{ callback_url: 'https://user:secret@app.example/cb' }, 'callback_url', 'must not carry a user name or password'],
    [{ callback_url: `https://app.example/${'x'.repeat(2048)}` }, 'callback_url', 'must be at most 2048 characters'],
    // The URL parser lets these through in a host; the page would put them in its Content-Security-Policy.
    [{ callback_url: 'https://app.example;sandbox;report-uri/' }, 'callback_url', badHost],
    [{ callback_url: "https://app.example,'unsafe-inline'/cb" }, 'callback_url', badHost],
    [
      { code_challenge: 'short', code_challenge_method: 'S256' },
      'code_challenge',
      'must be the base64url SHA-256 of the code_verifier: 43 characters of A-Z a-z 0-9 - _, no padding',
    ],
    [
      { code_challenge: `${S256.slice(0, 42)}=`, code_challenge_method: 'S256' },
      'code_challenge',
      'must be the base64url SHA-256 of the code_verifier: 43 characters of A-Z a-z 0-9 - _, no padding',
    ],
    [
      { code_challenge: 'has spaces in it', code_challenge_method: 'plain' },
      'code_challenge',
      'must be the code_verifier itself: 1 to 128 characters of A-Z a-z 0-9 - . _ ~',
    ],
    [{ code_challenge: 'x'.repeat(129) }, 'code_challenge', 'must be at most 128 characters'],
    [{ code_challenge_method: 'S256' }, 'code_challenge', 'is required when code_challenge_method is given'],
    [{ code_challenge: S256, code_challenge_method: 'S512' }, 'code_challenge_method', 'must be one of S256, plain'],
    [{ limit: -1 }, 'limit', 'must be >= 0'],
    [{ limit: null }, 'limit', 'must be a number'],
    [{ usage_limit_type: 'yearly' }, 'usage_limit_type', 'must be one of daily, weekly, monthly'],
    [{ expires_at: '2027-01-01T00:00:00-05:00' }, 'expires_at', 'must be a UTC time (ending in Z or +00:00): other time zones are rejected'],
    [{ expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', 'must be in the future (the clock says 2026-03-04T10:00:00.000Z)'],
    [{ key_label: 'x'.repeat(101) }, 'key_label', 'must be at most 100 characters'],
    [{ workspace_id: '00000000-0000-4000-8000-000000000000' }, 'workspace_id', 'is not a workspace of this account'],
    [{ spawn_agent: 'x'.repeat(201) }, 'spawn_agent', 'must be at most 200 characters'],
  ])('POST /auth/keys/code refuses %j with a 400 naming the field, and issues no code', async (patch, field, issue) => {
    const emu = await testEmulator()
    const body = 'callback_url' in patch ? patch : { callback_url: CALLBACK, ...patch }
    const res = await createCode(emu, Object.keys(patch).length === 0 ? {} : body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect((await emu.get('/_emulator/api/export')).body.tables.oauth_codes).toEqual([])
  })

  it.each([
    [{}, 'code', 'is required'],
    [{ code: '' }, 'code', 'must not be empty'],
    [{ code: 'x'.repeat(201) }, 'code', 'must be at most 200 characters'],
    [{ code: 7 }, 'code', 'must be a string'],
    [{ code: 'x', code_verifier: 'v'.repeat(129) }, 'code_verifier', 'must be at most 128 characters'],
    [{ code: 'x', code_verifier: '' }, 'code_verifier', 'must not be empty'],
    [{ code: 'x', code_challenge_method: 'S512' }, 'code_challenge_method', 'must be one of S256, plain, null'],
  ])('POST /auth/keys refuses %j with a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator()
    const res = await exchange(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
  })

  it('keeps at most 100 codes waiting in an account (409), and counts expired ones out', async () => {
    const emu = await testEmulator()
    for (let i = 0; i < 100; i++) expect((await createCode(emu, { callback_url: CALLBACK })).status).toBe(200)
    const refused = await createCode(emu, { callback_url: CALLBACK })
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({
      error: {
        code: 409,
        message: 'Too many authorization codes waiting to be exchanged (100): exchange some, or let them expire',
        metadata: { reason: 'too_many_pending_codes', limit: 100 },
      },
    })
    await emu.clock.advance('10m')
    expect((await createCode(emu, { callback_url: CALLBACK })).status).toBe(200)
    expect((await emu.get('/_emulator/api/export')).body.tables.oauth_codes).toHaveLength(1)
  })

  it("an account reset forgets the account's codes; a reset of another account keeps them", async () => {
    const emu = await testEmulator()
    const kept = await codeFor(emu)
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'other' })).body.data
    expect((await emu.send('POST', `/_emulator/api/accounts/${other.id}/reset`)).status).toBe(200)
    expect((await exchange(emu, { code: kept, code_verifier: VERIFIER })).status).toBe(200)
    const forgotten = await codeFor(emu)
    expect((await emu.send('POST', `/_emulator/api/accounts/${(await accounts(emu))[0]!.id}/reset`)).status).toBe(200)
    expect((await exchange(emu, { code: forgotten, code_verifier: VERIFIER })).body.error.message).toBe('Invalid authorization code')
  })
})

describe('the authorization page', () => {
  const query = new URLSearchParams({
    callback_url: 'http://localhost:3000/callback?state=s1',
    code_challenge: S256,
    code_challenge_method: 'S256',
    limit: '3',
  })

  it('GET /auth, the real path, leads to the page with the same query', async () => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: `/auth?${query}` })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`/_emulator/auth?${query}`)
  })

  it('shows the app and every account, with a strict policy and no script', async () => {
    const emu = await testEmulator()
    await emu.send('POST', '/_emulator/api/accounts', { name: 'Second <b>account</b>' })
    const res = await emu.request({ method: 'GET', url: `/_emulator/auth?${query}`, headers: { accept: 'text/html' } })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self' http:\/\/localhost:3000; base-uri 'none'; frame-ancestors 'none'$/,
    )
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['cache-control']).toBe('no-store')
    const html = res.body as string
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('Authorize <code>localhost:3000</code>')
    expect(html).toContain('a spending limit of $3')
    expect(html).toContain('Second &lt;b&gt;account&lt;/b&gt;')
    for (const account of await accounts(emu)) expect(html).toContain(`value="${account.id}"`)
    expect(html).toContain(`<input type="hidden" name="code_challenge" value="${S256}">`)
    expect(html).toContain('<input type="hidden" name="callback_url" value="http://localhost:3000/callback?state=s1">')
  })

  it('Authorize sends the browser to the callback with a code for the account picked, which the exchange turns into its key', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'Picked', credits_usd: 5 })).body.data
    const res = await form(emu, { ...Object.fromEntries(query), account_id: other.id, decision: 'authorize' })
    expect(res.status).toBe(303)
    const location = new URL(String(res.headers.location))
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:3000/callback')
    expect(location.searchParams.get('state')).toBe('s1')
    const code = location.searchParams.get('code')!
    const exchanged = await exchange(emu, { code, code_verifier: VERIFIER, code_challenge_method: 'S256' })
    expect(exchanged.status).toBe(200)
    const key = emu.ctx.services.keys.byHash(sha256Hex(exchanged.body.key))!
    expect(key).toMatchObject({ account_id: other.id, name: 'localhost:3000', limit_nanos: 3e9, kind: 'standard' })
    expect(exchanged.body.user_id).toBe(key.creator_user_id)
    expect((await embed(emu, exchanged.body.key)).status).toBe(200)
  })

  it('Deny sends the browser to the callback with error=access_denied, and issues no code', async () => {
    const emu = await testEmulator()
    const res = await form(emu, { callback_url: 'https://app.example/cb', decision: 'deny' })
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('https://app.example/cb?error=access_denied')
    expect((await emu.get('/_emulator/api/export')).body.tables.oauth_codes).toEqual([])
  })

  it.each([
    ['', 'Query parameter `callback_url` is required: the address the app receives the code at'],
    ['callback_url=http%3A%2F%2Fevil.example%2Fcb', `Query parameter \`callback_url\` ${badCallback}`],
    ['callback_url=https%3A%2F%2Fapp.example&code_challenge_method=S512', 'Query parameter `code_challenge_method` must be one of S256, plain'],
    [
      'callback_url=https%3A%2F%2Fapp.example&code_challenge=short&code_challenge_method=S256',
      'Query parameter `code_challenge` must be the base64url SHA-256',
    ],
    ['callback_url=https%3A%2F%2Fapp.example&limit=-4', 'Query parameter `limit` must be a number of USD from 0 to 1e9'],
    // A host that would inject directives into the page's policy is refused, and the policy stays whole.
    ['callback_url=https%3A%2F%2Fapp.example%3Bsandbox%3Breport-uri%2F', `Query parameter \`callback_url\` ${badHost}`],
  ])('a link with ?%s shows the error page (400), sends nobody anywhere', async (search, message) => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: `/_emulator/auth?${search}` })
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers.location).toBeUndefined()
    expect(res.body).toContain('This authorization link cannot be used')
    expect(res.body).toContain(message)
    expect(res.headers['content-security-policy']).toMatch(/form-action 'self';/)
    expect(String(res.headers['content-security-policy']).split(';')).toHaveLength(5)
  })

  it.each([
    [{ callback_url: 'https://app.example/cb', decision: 'maybe' }, 'Field `decision` must be authorize or deny'],
    [{ callback_url: 'https://app.example/cb', decision: 'authorize' }, 'Field `account_id` must be an account of this emulator'],
    [{ callback_url: 'https://app.example/cb', decision: 'authorize', account_id: 'acct_nope' }, 'Field `account_id` must be an account of this emulator'],
    [{ callback_url: 'http://evil.example/cb', decision: 'deny' }, `Field \`callback_url\` ${badCallback}`],
  ])('the form refuses %j with the error page (400) and issues no code', async (fields, message) => {
    const emu = await testEmulator()
    const res = await form(emu, fields)
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.body).toContain(message)
    expect((await emu.get('/_emulator/api/export')).body.tables.oauth_codes).toEqual([])
  })

  it('is guarded like the inspector: no other site may post the form, frame the page or reach it by another host name', async () => {
    const emu = await testEmulator()
    const account = (await accounts(emu))[0]!.id
    const fields = { callback_url: 'https://app.example/cb', decision: 'authorize', account_id: account }
    const crossSite = await form(emu, fields, { origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    expect(crossSite.body.error.metadata).toMatchObject({ field: 'origin' })
    const framed = await emu.request({
      method: 'GET',
      url: `/_emulator/auth?${query}`,
      headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' },
    })
    expect(framed.status).toBe(403)
    const rebound = await emu.request({ method: 'GET', url: `/_emulator/auth?${query}`, headers: { host: 'evil.example' } })
    expect(rebound.status).toBe(403)
    expect((await emu.get('/_emulator/api/export')).body.tables.oauth_codes).toEqual([])
    // Its own origin may.
    expect((await form(emu, fields, { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).status).toBe(303)
  })

  it('answers any query or form with the page, a redirect to the callback or a 4xx: never a 5xx, never a redirect elsewhere', async () => {
    const emu = await testEmulator()
    const account = (await accounts(emu))[0]!.id
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'https://app.example/cb',
        'http://localhost:1/x',
        'http://evil.example/',
        'javascript:alert(1)',
        '//evil.example',
        S256,
        'S256',
        'plain',
        '-1',
        '1e400',
        account,
      ),
    )
    const callback = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('https://app.example/cb', 'http://localhost:1/x?state=1') },
      { weight: 1, arbitrary: value },
    )
    const fields = fc.record(
      { callback_url: callback, code_challenge: value, code_challenge_method: value, limit: value, account_id: fc.oneof(fc.constant(account), value) },
      { requiredKeys: [] },
    )
    let redirects = 0
    await fc.assert(
      fc.asyncProperty(fields, fc.constantFrom('authorize', 'deny', undefined), async (values, decision) => {
        const query = new URLSearchParams(values as Record<string, string>).toString()
        const page = await emu.request({ method: 'GET', url: `/_emulator/auth?${query}` })
        expect([200, 400]).toContain(page.status)
        const posted = await form(emu, { ...(values as Record<string, string>), ...(decision && { decision }) })
        expect([303, 400, 409]).toContain(posted.status)
        if (posted.status === 303) {
          redirects++
          const target = new URL(String(posted.headers.location))
          expect(target.href.startsWith(new URL(values.callback_url!).href.split('#')[0]!.split('?')[0]!)).toBe(true)
        }
      }),
      { numRuns: 150, seed: 20260304 },
    )
    expect(redirects).toBeGreaterThan(0)
  })

  it('with an admin token, /auth still leads to the page, which asks for the token once and keeps it for its form', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    const link = await emu.request({ method: 'GET', url: `/auth?${query}` })
    expect(link.status).toBe(302)
    const refused = await emu.request({ method: 'GET', url: String(link.headers.location), headers: { accept: 'text/html' } })
    expect(refused.status).toBe(401)
    expect(refused.body).toContain('The inspector needs the admin token')
    const opened = await emu.request({ method: 'GET', url: `${String(link.headers.location)}&token=let-me-in` })
    expect(opened.status).toBe(200)
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!
    expect(String(opened.headers['set-cookie'])).toContain('Path=/_emulator')
    const account = (await emu.request({ method: 'GET', url: '/_emulator/api/accounts', headers: { cookie } })).body.data[0].id
    const decided = await form(emu, { ...Object.fromEntries(query), account_id: account, decision: 'authorize' }, { cookie })
    expect(decided.status).toBe(303)
    expect((await form(emu, { ...Object.fromEntries(query), account_id: account, decision: 'authorize' })).status).toBe(401)
  })

  it('form bodies are bounded (413)', async () => {
    const emu = await testEmulator()
    const res = await form(emu, { callback_url: 'https://app.example/cb', decision: 'deny', pad: 'x'.repeat(17 * 1024) })
    expect(res.status).toBe(413)
  })
})

describe('completing the authorization without a browser', () => {
  it('the admin API issues the code the Authorize button would, with where the browser would go', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/_emulator/api/oauth/authorize', { callback_url: CALLBACK, code_challenge: S256, code_challenge_method: 'S256' })
    expect(res.status).toBe(201)
    const account = (await accounts(emu))[0]!
    expect(res.body.data).toMatchObject({ account_id: account.id, expires_at: '2026-03-04T10:10:00.000Z' })
    expect(res.body.data.redirect_url).toBe(`${CALLBACK}?code=${res.body.data.code}`)
    expect((await exchange(emu, { code: res.body.data.code, code_verifier: VERIFIER })).status).toBe(200)

    expect((await emu.send('POST', '/_emulator/api/oauth/authorize', { callback_url: CALLBACK, account_id: 'acct_nope' })).body).toEqual({
      error: { code: 404, message: 'Account acct_nope not found' },
    })
    const bad = await emu.send('POST', '/_emulator/api/oauth/authorize', { callback_url: 'http://app.example/cb' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata).toMatchObject({ field: 'callback_url' })
  })

  it("the testing helper's authorize() gives the code, for the default account or a workspace's own", async () => {
    const emu = await startTestEmulator()
    try {
      const code = await emu.admin.authorize({ callbackUrl: CALLBACK, codeChallenge: S256, method: 'S256' })
      const post = (body: unknown) =>
        fetch(`${emu.apiUrl}/auth/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const res = await post({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' })
      expect(res.status).toBe(200)
      const { key } = (await res.json()) as { key: string }

      const workspace = await emu.admin.workspace({ name: 'isolated' })
      const own = await workspace.authorize({ callbackUrl: 'http://127.0.0.1:9999/cb', codeChallenge: 'plain-verifier', method: 'plain', limit: 1 })
      const ownKey = ((await (await post({ code: own, code_verifier: 'plain-verifier' })).json()) as { key: string }).key
      const meta = await fetch(`${emu.apiUrl}/key`, { headers: { authorization: `Bearer ${ownKey}` } })
      expect(((await meta.json()) as { data: { limit: number } }).data.limit).toBe(1)
      expect(ownKey).not.toBe(key)
      await expect(emu.admin.authorize({ callbackUrl: 'http://app.example/cb' })).rejects.toThrow(/400/)
    } finally {
      await emu.close()
    }
  })
})
