// The Fixtures view's editor and test panel turn text inputs into admin API bodies. Each body they
// build must pass the emulator's own schema, a rule read back must fill the editor as it was written,
// an edit must leave the count alone unless `times` changed, and a 400's field must lead to its input.
import { describe, expect, it } from 'vitest'
import type { ChatFixture } from '../../../src/emulator/admin/types.ts'
import { compileCheck } from '../../../src/emulator/http/validation.ts'
import { CreateChatFixtureBody, TestChatFixtureBody, UpdateChatFixtureBody } from '../../../src/emulator/modules/text/text-fixtures.schemas.ts'
import {
  createBody,
  emptyDraft,
  fromFixture,
  inputOfField,
  patchBody,
  testBody,
  toolCallRow,
  type FixtureDraft,
} from '../../../src/renderer/src/features/fixtures/draft.ts'

const checkCreate = compileCheck(CreateChatFixtureBody)
const checkPatch = compileCheck(UpdateChatFixtureBody)
const checkTest = compileCheck(TestChatFixtureBody)

const draft = (patch: Partial<FixtureDraft>): FixtureDraft => ({ ...emptyDraft(), ...patch })

const stored = (patch: Partial<ChatFixture>): ChatFixture => ({
  id: 'fx-1',
  account_id: 'acct-1',
  name: null,
  enabled: true,
  position: 0,
  match: {},
  answer: { content: 'hi' },
  times: null,
  remaining: null,
  hits: 0,
  explanation: 'Answers "hi" to every chat request of the account.',
  created_at: '2026-03-04T10:00:00.000Z',
  updated_at: null,
  ...patch,
})

describe("the editor's bodies", () => {
  it('writes only the filled match fields, trimming names but keeping texts as typed', () => {
    const body = createBody(
      draft({ model: ' openai/* ', last_user: ' refund', last_user_regex: '^order #\\d+$', tool: ' ', header: 'happy ', content: 'On its way.' }),
    )
    expect(body).toEqual({
      match: { model: 'openai/*', last_user: ' refund', last_user_regex: '^order #\\d+$', header: 'happy' },
      answer: { content: 'On its way.' },
    })
    expect(checkCreate(body)).toBeNull()
    // The check is the route's own: a body it would refuse does not pass.
    expect(checkCreate({ ...body, match: { ...body.match, tool: 'two words' } })).toMatchObject({ field: 'match.tool' })
  })

  it('answers with tool calls (empty arguments as {}), an optional text beside them, or an error alone', () => {
    const tools = createBody(
      draft({ kind: 'tools', toolCalls: [toolCallRow(' get_weather ', '{"city":"Oslo"}'), toolCallRow('noop', '')], content: 'Checking.', times: '2' }),
    )
    expect(tools).toMatchObject({
      answer: {
        tool_calls: [
          { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { name: 'noop', arguments: '{}' },
        ],
        content: 'Checking.',
      },
      times: 2,
    })
    expect(checkCreate(tools)).toBeNull()

    const error = createBody(draft({ kind: 'error', status: '503', message: '  down for a bit ', content: 'ignored', placement: 'first' }))
    expect(error).toEqual({ match: {}, answer: { error: { status: 503, message: 'down for a bit' } }, position: 0 })
    expect(checkCreate(error)).toBeNull()
    expect(createBody(draft({ kind: 'error', status: '429' })).answer).toEqual({ error: { status: 429 } })
  })

  it('reads a stored rule back into the same fields, and an unchanged edit leaves times (and so the count) alone', () => {
    const rule = stored({
      name: 'weather',
      match: { tool: 'get_weather', system_regex: 'json\\s+only' },
      answer: { tool_calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      times: 3,
      remaining: 1,
    })
    const filled = fromFixture(rule)
    expect(filled).toMatchObject({ name: 'weather', tool: 'get_weather', system_regex: 'json\\s+only', kind: 'tools', times: '3', placement: 'keep' })
    expect(filled.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', '{"city":"Oslo"}']])

    const unchanged = patchBody(filled, rule)
    expect(unchanged).toEqual({ match: rule.match, answer: rule.answer, name: 'weather' })
    expect(checkPatch(unchanged)).toBeNull()

    // A new count starts again; an emptied one answers every request; a cleared name is removed.
    expect(patchBody({ ...filled, times: '5' }, rule).times).toBe(5)
    expect(patchBody({ ...filled, times: '' }, rule).times).toBeNull()
    expect(patchBody({ ...filled, name: '' }, rule).name).toBeNull()
    expect(patchBody({ ...filled, placement: 'first' }, rule).position).toBe(0)
    expect(checkPatch(patchBody({ ...filled, placement: 'last' }, rule))).toBeNull()
  })

  it('reads an error rule and a text rule with every match field', () => {
    expect(fromFixture(stored({ answer: { error: { status: 402, message: 'no money' } } }))).toMatchObject({
      kind: 'error',
      status: '402',
      message: 'no money',
    })
    const match = { model: 'x/*', last_user: 'a', last_user_regex: 'b', system: 'c', system_regex: 'd', tool: 'e', header: 'f' }
    expect(fromFixture(stored({ match }))).toMatchObject({ ...match, kind: 'text', content: 'hi', times: '' })
  })
})

describe('where a 400 points', () => {
  it('leads each field the emulator names to its input', () => {
    expect(inputOfField('match.last_user_regex')).toBe('last_user_regex')
    expect(inputOfField('match.tool')).toBe('tool')
    expect(inputOfField('answer.tool_calls[2].arguments')).toBe('tool-2-arguments')
    expect(inputOfField('answer.tool_calls[1].name')).toBe('tool-1-name')
    expect(inputOfField('answer.tool_calls')).toBe('tool-0-name')
    expect(inputOfField('answer.error.status')).toBe('status')
    expect(inputOfField('answer.error.message')).toBe('message')
    expect(inputOfField('answer.error')).toBe('status')
    expect(inputOfField('answer.content')).toBe('content')
    expect(inputOfField('answer')).toBe('content')
    expect(inputOfField('times')).toBe('times')
    expect(inputOfField('position')).toBe('placement')
    expect(inputOfField('name')).toBe('name')
    expect(inputOfField('body')).toBeNull()
    expect(inputOfField(null)).toBeNull()
  })
})

describe("the test panel's request", () => {
  it('sends the system prompt only when given, the tools as functions and the header trimmed', () => {
    const full = testBody({
      model: ' openai/gpt-4o-mini ',
      system: 'Be brief.',
      user: 'Where is my refund?',
      tools: 'get_weather, ,lookup_order ',
      header: ' happy ',
    })
    expect(full).toEqual({
      model: 'openai/gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Where is my refund?' },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather' } },
        { type: 'function', function: { name: 'lookup_order' } },
      ],
      header: 'happy',
    })
    expect(checkTest(full)).toBeNull()
    expect(testBody({ model: 'm', system: ' ', user: 'hi', tools: '', header: '' })).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
  })
})
