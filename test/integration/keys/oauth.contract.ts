// The contract cases of key provisioning and OAuth PKCE. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { send, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'oauth.code.create': { gateway: ['post', '/auth/keys/code'] },
  'oauth.code.exchange': { gateway: ['post', '/auth/keys'] },
}

export const cases: Case[] = [
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
]
