// Fault rules, the pure parts (faults.ts): which requests a rule's match takes, the seeded draw its
// probability is held against, the error a status answers with (message, metadata and headers as the
// real service sends them), and the one-sentence explanation the UI shows for a rule.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { explain, faultDraw, faultError, matches, PRESETS, type FaultRow, type FaultTarget } from '../../../src/emulator/faults/faults.ts'
import type { FaultAction, FaultMatch } from '../../../src/emulator/faults/faults.schemas.ts'

const TARGET: FaultTarget = {
  operation: 'embeddings.create',
  method: 'POST',
  path: '/api/v1/embeddings',
  key_hash: 'a'.repeat(64),
  account_id: 'acct_1',
  model: 'openai/text-embedding-3-small',
}
const NOW = Date.parse('2026-03-04T10:00:30.000Z')

const row = (action: FaultAction, match: FaultMatch = {}, fields: Partial<FaultRow> = {}): FaultRow => ({
  id: 'rule_1',
  name: null,
  enabled: 1,
  match: JSON.stringify(match),
  action: JSON.stringify(action),
  probability: 1,
  remaining: null,
  expires_at: null,
  evaluations: 0,
  hits: 0,
  created_at: NOW,
  updated_at: null,
  ...fields,
})

/** The parts of an ApiError a client sees. */
const seen = (error: ApiError) => ({
  status: error.status,
  message: error.message,
  metadata: error.metadata,
  headers: error.headers,
  reason: error.reason,
  detail: error.detail,
})

describe('matches', () => {
  it('an empty match takes every request', () => {
    expect(matches({}, TARGET)).toBe(true)
    expect(matches({}, { ...TARGET, key_hash: null, account_id: null, model: null })).toBe(true)
  })

  it.each<[FaultMatch, boolean]>([
    [{ operation: 'embeddings.create' }, true],
    [{ operation: 'chat.create' }, false],
    [{ method: 'post' }, true],
    [{ method: 'GET' }, false],
    [{ key_hash: 'a'.repeat(64) }, true],
    [{ key_hash: 'b'.repeat(64) }, false],
    [{ account_id: 'acct_1' }, true],
    [{ account_id: 'acct_2' }, false],
    [{ model: 'openai/text-embedding-3-small' }, true],
    [{ model: 'openai/text-embedding-3' }, false],
    [{ operation: 'embeddings.create', method: 'POST', account_id: 'acct_1', model: 'openai/text-embedding-3-small' }, true],
    [{ operation: 'embeddings.create', account_id: 'acct_2' }, false],
  ])('%j: %s', (match, expected) => {
    expect(matches(match, TARGET)).toBe(expected)
  })

  it('a field the match names never takes a request without it', () => {
    expect(matches({ model: 'm' }, { ...TARGET, model: null })).toBe(false)
    expect(matches({ key_hash: 'k' }, { ...TARGET, key_hash: null })).toBe(false)
    expect(matches({ account_id: 'a' }, { ...TARGET, account_id: null })).toBe(false)
  })

  it.each<[string, string, boolean]>([
    ['/api/v1/embeddings', '/api/v1/embeddings', true],
    ['/api/v1/embeddings', '/api/v1/embeddings/x', false],
    ['/api/v1/models*', '/api/v1/models', true],
    ['/api/v1/models*', '/api/v1/models/user', true],
    ['/api/v1/models*', '/api/v1/model', false],
    ['/api/v1/*/assignments', '/api/v1/guardrails/g1/assignments', true],
    ['*', '/anything/at/all', true],
    ['/api/v1/a.b', '/api/v1/aXb', false],
    ['/api/v1/(x)', '/api/v1/(x)', true],
    ['/router/v1/video/ent/v2/text2video?x', '/router/v1/video/ent/v2/text2video', false],
  ])('path glob %s against %s: %s', (path, target, expected) => {
    expect(matches({ path }, { ...TARGET, path: target })).toBe(expected)
  })
})

describe('faultDraw', () => {
  it('is fixed by (seed, rule, evaluation) and lies in [0, 1)', () => {
    const draw = faultDraw(1, 'rule_1', 0)
    expect(faultDraw(1, 'rule_1', 0)).toBe(draw)
    expect(draw).toBeGreaterThanOrEqual(0)
    expect(draw).toBeLessThan(1)
    expect(new Set([draw, faultDraw(2, 'rule_1', 0), faultDraw(1, 'rule_2', 0), faultDraw(1, 'rule_1', 1)]).size).toBe(4)
  })

  it('spreads evenly: a probability of 0.3 fires about 30% of a thousand evaluations', () => {
    const draws = Array.from({ length: 1000 }, (_, n) => faultDraw(7, 'rule_x', n))
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true)
    const fired = draws.filter((d) => d < 0.3).length
    expect(fired).toBeGreaterThan(250)
    expect(fired).toBeLessThan(350)
  })
})

describe('faultError', () => {
  it('429: the rate limit headers, reset at the next minute of the clock, and Retry-After kept short', () => {
    expect(seen(faultError(429, NOW, 'rule_1'))).toEqual({
      status: 429,
      message: 'Rate limit exceeded',
      metadata: { emulator_fault: 'rule_1', error_type: 'rate_limit_exceeded' },
      headers: {
        'retry-after': '1',
        'x-ratelimit-limit': '20',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Date.parse('2026-03-04T10:01:00.000Z')),
      },
      reason: undefined,
      detail: 'answered by fault rule rule_1',
    })
  })

  it.each<[number, string, Record<string, unknown>, Record<string, string>]>([
    [402, 'Insufficient credits. Add more using a crypto charge or the admin API', { limit_source: 'openrouter_credits' }, {}],
    [408, 'Operation timed out. Please try again later.', {}, {}],
    [500, 'Internal Server Error', {}, {}],
    [502, 'Provider returned error', { error_type: 'server' }, {}],
    [503, 'Service temporarily unavailable: the provider is not available right now', { error_type: 'provider_unavailable' }, { 'retry-after': '5' }],
    [504, 'Gateway timeout', {}, {}],
    [418, 'Error 418', {}, {}],
  ])('%i: the real message, metadata and headers', (status, message, metadata, headers) => {
    expect(seen(faultError(status, NOW, 'r'))).toMatchObject({ status, message, metadata: { emulator_fault: 'r', ...metadata }, headers, reason: undefined })
  })

  it("answers a rule's own message as written, with the router's reason for its status, and its headers over the defaults", () => {
    expect(seen(faultError(503, NOW, 'r', { message: 'down for maintenance', headers: { 'retry-after': '30', 'x-extra': 'yes' } }))).toMatchObject({
      message: 'down for maintenance',
      reason: 'ServiceUnavailable',
      headers: { 'retry-after': '30', 'x-extra': 'yes' },
    })
    expect(faultError(418, NOW, 'r', { message: 'teapot' }).reason).toBe('BadRequest')
  })

  it('names a chat fixture instead of a rule when a fixture answers', () => {
    expect(seen(faultError(500, NOW, 'fx_1', {}, 'fixture'))).toMatchObject({ metadata: { emulator_fixture: 'fx_1' }, detail: 'answered by chat fixture fx_1' })
  })
})

describe('explain', () => {
  it.each<[string, FaultRow, string]>([
    ['a status to every request', row({ status: 503 }), 'Answers 503 (service temporarily unavailable) to every gateway and router request.'],
    ['the short form of a longer message', row({ status: 402 }), 'Answers 402 (insufficient credits) to every gateway and router request.'],
    ['a status without a known message', row({ status: 418 }), 'Answers 418 to every gateway and router request.'],
    ['a drop with latency', row({ drop: true, latency_ms: 200 }), 'Drops the connection and adds 200 ms of latency to every gateway and router request.'],
    ['a latency range', row({ latency_range_ms: { min: 100, max: 300 } }), 'Adds 100-300 ms of latency to every gateway and router request.'],
    ['no action', row({}), 'Does nothing to every gateway and router request.'],
    [
      'every matcher',
      row(
        { status: 429 },
        { operation: 'embeddings.create', method: 'post', path: '/api/v1/embeddings', model: 'm', key_hash: 'abcdef0123456789', account_id: 'acct_1' },
      ),
      'Answers 429 (rate limit exceeded) to embeddings.create, POST /api/v1/embeddings, model m, key abcdef01…, account acct_1.',
    ],
    ['a path alone', row({ status: 500 }, { path: '/api/v1/models*' }), 'Answers 500 (internal server error) to /api/v1/models*.'],
    ['one use left', row({ status: 500 }, {}, { remaining: 1 }), 'Answers 500 (internal server error) to every gateway and router request, the next time.'],
    ['uses left', row({ status: 500 }, {}, { remaining: 3 }), 'Answers 500 (internal server error) to every gateway and router request, the next 3 times.'],
    ['used up', row({ status: 500 }, {}, { remaining: 0 }), 'Answers 500 (internal server error) to every gateway and router request, and is used up.'],
    [
      'a probability, an expiry, disabled',
      row({ status: 504 }, {}, { probability: 0.25, expires_at: Date.parse('2026-03-05T00:00:00.000Z'), enabled: 0 }),
      'Answers 504 (gateway timeout) to every gateway and router request with probability 25% until 2026-03-05T00:00:00.000Z (disabled).',
    ],
  ])('%s', (_, rule, sentence) => {
    expect(explain(rule)).toBe(sentence)
  })
})

describe('PRESETS', () => {
  it("offers the design's 402, 429 and 503 first, and every preset does something", () => {
    expect(
      Object.values(PRESETS)
        .filter((p) => p.common)
        .map((p) => p.action.status),
    ).toEqual([402, 429, 503])
    for (const [id, preset] of Object.entries(PRESETS)) expect(explain(row(preset.action)), id).not.toMatch(/^Does nothing/)
  })
})
