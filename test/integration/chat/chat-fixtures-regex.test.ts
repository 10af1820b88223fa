// Chat fixture regexes are RE2's (re2js): matched in time linear in the text, so a pattern that makes a
// backtracking engine explode (`^(a+)+$`) cannot stall the emulator; what RE2 cannot take (backreferences,
// lookaround, possessive quantifiers, huge repeat counts) is refused with a 400 naming the field, by the
// admin API and by the state import; and matching stays case-insensitive and finds the pattern anywhere.
import { describe, expect, it } from 'vitest'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MODEL = 'openai/gpt-4o-mini'

async function account(emu: TestEmulator) {
  const created = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as { id: string; standard_key: string }
  const addRule = (rule: Record<string, unknown>) => emu.send('POST', `${ADMIN}/accounts/${created.id}/chat-fixtures`, rule)
  const add = async (rule: Record<string, unknown>) => {
    const res = await addRule(rule)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  /** What the test endpoint says of a prompt, and how long it took to say it. */
  const test = async (prompt: string) => {
    const started = performance.now()
    const res = await emu.send('POST', `${ADMIN}/accounts/${created.id}/chat-fixtures/test`, { model: MODEL, prompt })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return {
      ...(res.body.data as { fixture: { id: string } | null; checks: Array<{ answers: boolean; reason: string | null }> }),
      ms: performance.now() - started,
    }
  }
  const content = async (text: string) => {
    const res = await emu.send('POST', '/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: text }] }, created.standard_key)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.choices[0].message.content as string
  }
  return { ...created, add, addRule, test, content }
}

describe('matching runs in linear time', () => {
  it('answers a chat that would make a backtracking engine explode, and the health check stays responsive meanwhile', async () => {
    const emu = await listeningEmulator()
    const { add, standard_key } = await account(emu)
    await add({ match: { last_user_regex: '^(a+)+$' }, answer: { content: 'all a' } })
    await add({ match: { system_regex: '^(a|aa)+$' }, answer: { content: 'all a, system' } })

    const text = `${'a'.repeat(29)}!`
    let chatDone = false
    const chat = fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standard_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        messages: [
          { role: 'system', content: text },
          { role: 'user', content: text },
        ],
      }),
    }).finally(() => (chatDone = true))
    // Health checks, one after another, for as long as the chat is out: the slowest one is the stall.
    const heartbeat = (async () => {
      const latencies: number[] = []
      do {
        const started = performance.now()
        const res = await fetch(`${emu.url}${ADMIN}/health`)
        expect(res.status).toBe(200)
        await res.arrayBuffer()
        latencies.push(performance.now() - started)
      } while (!chatDone)
      return latencies
    })()

    const res = await chat
    expect(res.status).toBe(200)
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> }
    expect(body.choices[0]!.message.content).not.toMatch(/^all a/)
    const latencies = await heartbeat
    expect(latencies.length).toBeGreaterThan(0)
    expect(Math.max(...latencies)).toBeLessThan(1000)
  })

  it('matches a 1 MB message quickly, and still finds what it looks for at its end', async () => {
    const emu = await testEmulator()
    const { add, test } = await account(emu)
    await add({ match: { last_user_regex: '(a|aa)*b' }, answer: { content: 'found b' } })
    const miss = await test('a'.repeat(1_000_000))
    expect(miss.fixture).toBeNull()
    expect(miss.checks[0]!.reason).toBe('the last user message does not match /(a|aa)*b/i')
    expect(miss.ms).toBeLessThan(1000)
    const hit = await test(`${'a'.repeat(999_999)}b`)
    expect(hit.fixture).not.toBeNull()
    expect(hit.ms).toBeLessThan(1000)
  })

  it('bounds the work of a pattern whose automaton outgrows its cache', async () => {
    const emu = await testEmulator()
    const { add, test } = await account(emu)
    // Each position may start a run of 20 a-or-b, the states RE2's DFA needs are 2^20: it falls back
    // to simulating the NFA, a step per instruction per character.
    await add({ match: { last_user_regex: '[ab]*a[ab]{20}c' }, answer: { content: 'x' } })
    // A million pseudo-random a and b (a linear congruential generator: the same every run).
    let seed = 1
    const chars: string[] = []
    for (let i = 0; i < 1_000_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      chars.push(seed & 0x10000 ? 'a' : 'b')
    }
    const text = chars.join('')
    const { fixture, ms } = await test(text)
    expect(fixture).toBeNull()
    expect(ms).toBeLessThan(3000)
  })
})

describe('what RE2 does not take is refused', () => {
  const refused: Array<[string, string, string, RegExp]> = [
    ['a backreference', 'last_user_regex', '(a)\\1', /RE2 syntax does not support backreferences \(`\\1`\)$/],
    ['a named backreference', 'system_regex', '(?<x>a)\\k<x>', /RE2 syntax does not support backreferences/],
    ['a lookahead', 'last_user_regex', 'foo(?=a)', /RE2 syntax does not support lookahead \(`\(\?=`\)$/],
    ['a negative lookahead', 'system_regex', '(?!a)b', /RE2 syntax does not support lookahead \(`\(\?!`\)$/],
    ['a lookbehind', 'last_user_regex', '(?<=a)b', /RE2 syntax does not support lookbehind \(`\(\?<=`\)$/],
    ['a possessive quantifier', 'last_user_regex', 'a++b', /RE2 syntax does not support possessive quantifiers \(`\+\+`\)$/],
    ['a \\u escape', 'last_user_regex', '\\u20AC', /RE2 syntax does not support `\\u` escapes: write `\\x\{20AC\}`/],
    ['a bad group', 'last_user_regex', 'order #(\\d+', /RE2 syntax: missing closing \): `order #\(\\d\+`$/],
    ['a repeat count over 1000', 'last_user_regex', 'a{1001}', /RE2 syntax: invalid repeat count: `\{1001\}`$/],
    ['a program too large', 'system_regex', '[ab]{1000}[ab]{1000}c', /too large for RE2 \(\d+ instructions, at most 2000\): lower its repeat counts$/],
  ]
  it.each(refused)('refuses %s with a 400 naming the field, and stores nothing', async (_, field, pattern, message) => {
    const emu = await testEmulator()
    const { id, addRule } = await account(emu)
    const res = await addRule({ match: { [field]: pattern }, answer: { content: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(`match.${field}`)
    expect(res.body.error.message).toMatch(new RegExp(`^Field \`match\\.${field}\` is not a valid regular expression: `))
    expect(res.body.error.message).toMatch(message)
    expect((await emu.get(`${ADMIN}/accounts/${id}/chat-fixtures`)).body.data).toEqual([])
  })

  it('refuses the same on update', async () => {
    const emu = await testEmulator()
    const { id, add } = await account(emu)
    await add({ match: { last_user_regex: 'a' }, answer: { content: 'x' } })
    const [rule] = (await emu.get(`${ADMIN}/accounts/${id}/chat-fixtures`)).body.data as Array<{ id: string }>
    const res = await emu.send('PATCH', `${ADMIN}/chat-fixtures/${rule!.id}`, { match: { last_user_regex: '(a)\\1' } })
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('match.last_user_regex')
  })

  it('the state import refuses a fixture whose regex RE2 does not take, naming the row, the column and the regex', async () => {
    const emu = await testEmulator()
    const { add } = await account(emu)
    await add({ match: { last_user_regex: 'ship(ping)?' }, answer: { content: 'It ships tomorrow.' } })
    const exported = (await emu.get(`${ADMIN}/export`)).body
    for (const [field, pattern, issue] of [
      ['last_user_regex', '(a)\\1', 'RE2 syntax does not support backreferences (`\\1`)'],
      ['system_regex', '(?=a)', 'RE2 syntax does not support lookahead (`(?=`)'],
    ] as const) {
      const broken = structuredClone(exported)
      broken.tables.chat_fixtures[0].match = JSON.stringify({ [field]: pattern })
      const refused = await emu.send('POST', `${ADMIN}/import`, broken)
      expect(refused.status).toBe(400)
      expect(refused.body.error.metadata).toMatchObject({ field: 'tables.chat_fixtures[0].match' })
      expect(refused.body.error.message).toBe(`Field \`tables.chat_fixtures[0].match\` holds a ${field} that is not a valid regular expression: ${issue}`)
    }
    expect((await emu.send('POST', `${ADMIN}/import`, exported)).status).toBe(200)
  })
})

describe('what RE2 matches', () => {
  it('is case-insensitive and finds the pattern anywhere, as before', async () => {
    const emu = await testEmulator()
    const { add, content } = await account(emu)
    await add({ match: { last_user_regex: 'hel+o' }, answer: { content: 'greeted' } })
    await add({ match: { last_user_regex: '^order #(?P<n>\\d+)$' }, answer: { content: 'order' } })
    await add({ match: { last_user_regex: 'café' }, answer: { content: 'café' } })
    expect(await content('HELLO')).toBe('greeted')
    expect(await content('Well, hellllo there')).toBe('greeted')
    expect(await content('ORDER #42')).toBe('order')
    expect(await content('my order #42')).not.toBe('order')
    expect(await content('Un CAFÉ, please')).toBe('café')
    expect(await content('Goodbye')).not.toMatch(/^(greeted|order|café)$/)
  })

  it('a rule stored with a pattern RE2 does not take (an older database) answers nothing, and says why', async () => {
    const emu = await testEmulator()
    const { id, add, test } = await account(emu)
    await add({ match: { last_user_regex: 'a' }, answer: { content: 'x' } })
    emu.ctx.db.prepare('UPDATE chat_fixtures SET match = ? WHERE account_id = ?').run(JSON.stringify({ last_user_regex: '(?=a)a' }), id)
    const { fixture, checks } = await test('a')
    expect(fixture).toBeNull()
    expect(checks[0]!.reason).toBe('its last_user_regex is not valid: RE2 syntax does not support lookahead (`(?=`)')
  })
})
