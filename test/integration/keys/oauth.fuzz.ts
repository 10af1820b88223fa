// The fuzzed operations of key provisioning and OAuth PKCE (the API and the authorization page): a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 5,
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
    place: 6,
    method: 'POST',
    path: '/api/v1/auth/keys',
    body: { code: 'auth_code_abc123def456', code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', code_challenge_method: 'S256' },
  },
  {
    place: 7,
    method: 'POST',
    path: '/_emulator/api/oauth/authorize',
    body: { callback_url: 'https://app.example/cb', code_challenge: 'plain-verifier', code_challenge_method: 'plain' },
  },
]
