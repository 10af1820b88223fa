// The text engine's admin routes under /_emulator/api (still under /chat, as the API names them): the engine's settings (answer lengths, stream
// speed), an account's chat fixtures (list, add, clear, and try a request against them), and one
// fixture by id (read, change or move, delete). Each fixture explains itself in one sentence.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { toIso } from '../../core/clock.ts'
import { fieldError } from '../../core/errors.ts'
import type { EmulatorContext } from '../module.ts'
import { immediateTransaction } from '../../store/db.ts'
import { parseMessages, parseTools } from './text.input.ts'
import { fixtureSubject } from './text-engine.service.ts'
import type { ChatFixtureRow } from './text-fixtures.repo.ts'
import { badRegex, explainFixture, mismatch } from './text-fixtures.service.ts'
import {
  ChatFixture,
  type ChatFixtureAnswer,
  type ChatFixtureMatch,
  ChatFixtureTest,
  ChatSettings,
  ChatSettingsBody,
  CreateChatFixtureBody,
  TestChatFixtureBody,
  UpdateChatFixtureBody,
} from './text-fixtures.schemas.ts'
import { data, Deleted } from '../../http/schemas.ts'
import { accountNotFound } from '../accounts/accounts.errors.ts'
import { chatFixtureNotFound } from './text.errors.ts'

const AccountParams = Type.Object({ id: Type.String() })
const FixtureParams = Type.Object({ id: Type.String() })

export function chatFixtureView(row: ChatFixtureRow): ChatFixture {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    enabled: row.enabled === 1,
    position: row.position,
    match: JSON.parse(row.match) as ChatFixtureMatch,
    answer: JSON.parse(row.answer) as ChatFixtureAnswer,
    times: row.times,
    remaining: row.remaining,
    hits: row.hits,
    explanation: explainFixture(row),
    created_at: toIso(row.created_at),
    updated_at: row.updated_at === null ? null : toIso(row.updated_at),
  }
}

export function checkFixtureMatch(match: ChatFixtureMatch): void {
  const bad = badRegex(match)
  if (bad) throw fieldError(`match.${bad.field}`, `is not a valid regular expression: ${bad.issue}`)
}

/** The answer as stored: tool call arguments as JSON text, checked to be JSON. */
export function storedAnswer(answer: ChatFixtureAnswer): ChatFixtureAnswer {
  if (answer.error && (answer.content !== undefined || answer.tool_calls)) {
    throw fieldError('answer.error', 'stands alone: an answer is an error, or text and tool calls, not both')
  }
  if (!answer.error && answer.content === undefined && !answer.tool_calls) throw fieldError('answer', 'needs `content`, `tool_calls` or `error`')
  if (!answer.tool_calls) return answer
  const tool_calls = answer.tool_calls.map((call, i) => {
    if (typeof call.arguments !== 'string') return { name: call.name, arguments: JSON.stringify(call.arguments) }
    try {
      JSON.parse(call.arguments)
    } catch {
      throw fieldError(`answer.tool_calls[${i}].arguments`, 'must be an object or its JSON text')
    }
    return call
  })
  return { ...answer, tool_calls }
}

export const chatAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.text.fixtures

  app.get('/chat/settings', { config: { operation: 'admin.chat.settings.get' }, schema: { response: data(ChatSettings) } }, async () => ({
    data: ctx.services.text.settings.current,
  }))

  app.put(
    '/chat/settings',
    { config: { operation: 'admin.chat.settings.set' }, schema: { body: ChatSettingsBody, response: data(ChatSettings) } },
    async (request) => {
      // A model the catalog does not have would never answer at its length: most likely a typo.
      for (const id of Object.keys(request.body.model_answer_tokens ?? {})) {
        if (!ctx.services.catalog.get().find(id)) throw fieldError(`model_answer_tokens.${id}`, 'is not a model of the catalog')
      }
      ctx.services.text.settings.current = { ...ctx.services.text.settings.current, ...request.body }
      return { data: ctx.services.text.settings.current }
    },
  )
  const requireAccount = (id: string): void => {
    if (!ctx.services.accounts.get(id)) throw accountNotFound(id)
  }
  const requireFixture = (id: string): ChatFixtureRow => {
    const row = repo.get(id)
    if (!row) throw chatFixtureNotFound(id)
    return row
  }

  app.get(
    '/accounts/:id/chat-fixtures',
    { config: { operation: 'admin.chatFixtures.list' }, schema: { params: AccountParams, response: data(Type.Array(ChatFixture)) } },
    async (request) => {
      requireAccount(request.params.id)
      return { data: repo.list(request.params.id).map(chatFixtureView) }
    },
  )

  app.post(
    '/accounts/:id/chat-fixtures',
    { config: { operation: 'admin.chatFixtures.create' }, schema: { params: AccountParams, body: CreateChatFixtureBody, response: data(ChatFixture, 201) } },
    async (request, reply) => {
      requireAccount(request.params.id)
      const body = request.body
      const match = body.match ?? {}
      checkFixtureMatch(match)
      const answer = storedAnswer(body.answer)
      const id = ctx.ids.uuid(ctx.ids.next('chat-fixture'))
      immediateTransaction(ctx.db, () =>
        repo.insert(
          {
            id,
            account_id: request.params.id,
            name: body.name ?? null,
            enabled: body.enabled === false ? 0 : 1,
            match: JSON.stringify(match),
            answer: JSON.stringify(answer),
            times: body.times ?? null,
            remaining: body.times ?? null,
            hits: 0,
            created_at: ctx.clock.now(),
            updated_at: null,
          },
          body.position ?? null,
        ),
      )
      return reply.code(201).send({ data: chatFixtureView(requireFixture(id)) })
    },
  )

  app.delete(
    '/accounts/:id/chat-fixtures',
    { config: { operation: 'admin.chatFixtures.clear' }, schema: { params: AccountParams, response: data(Deleted) } },
    async (request) => {
      requireAccount(request.params.id)
      repo.clear(request.params.id)
      return { data: { deleted: true } }
    },
  )

  app.post(
    '/accounts/:id/chat-fixtures/test',
    { config: { operation: 'admin.chatFixtures.test' }, schema: { params: AccountParams, body: TestChatFixtureBody, response: data(ChatFixtureTest) } },
    async (request) => {
      requireAccount(request.params.id)
      const body = request.body
      const messages = body.messages ? parseMessages(body.messages) : [{ role: 'user' as const, text: body.prompt ?? '', media: 0, toolCalls: [] }]
      const subject = fixtureSubject(body.model, messages, parseTools(body.tools), body.header ?? null)
      const rows = repo.list(request.params.id)
      const reasons = rows.map((row) => mismatch(row, subject))
      const first = reasons.indexOf(null)
      const checks = rows.map((row, i) => {
        const reason = first !== -1 && i > first ? 'an earlier rule answers' : reasons[i]!
        return { id: row.id, name: row.name, answers: i === first, reason: i === first ? null : reason }
      })
      const answering = first === -1 ? null : rows[first]!
      return { data: { fixture: answering ? chatFixtureView(answering) : null, checks } }
    },
  )

  app.get(
    '/chat-fixtures/:id',
    { config: { operation: 'admin.chatFixtures.get' }, schema: { params: FixtureParams, response: data(ChatFixture) } },
    async (request) => ({ data: chatFixtureView(requireFixture(request.params.id)) }),
  )

  app.patch(
    '/chat-fixtures/:id',
    { config: { operation: 'admin.chatFixtures.update' }, schema: { params: FixtureParams, body: UpdateChatFixtureBody, response: data(ChatFixture) } },
    async (request) => {
      const row = requireFixture(request.params.id)
      const body = request.body
      if (body.match) checkFixtureMatch(body.match)
      const answer = body.answer ? JSON.stringify(storedAnswer(body.answer)) : row.answer
      // Setting `times` starts its count again; null makes the rule answer every request.
      const times = body.times === undefined ? row.times : body.times
      const remaining = body.times === undefined ? row.remaining : body.times
      immediateTransaction(ctx.db, () =>
        repo.update(
          {
            ...row,
            name: body.name === undefined ? row.name : body.name,
            enabled: body.enabled === undefined ? row.enabled : body.enabled ? 1 : 0,
            match: body.match === undefined ? row.match : JSON.stringify(body.match),
            answer,
            times,
            remaining,
            updated_at: ctx.clock.now(),
          },
          body.position ?? null,
        ),
      )
      return { data: chatFixtureView(requireFixture(row.id)) }
    },
  )

  app.delete(
    '/chat-fixtures/:id',
    { config: { operation: 'admin.chatFixtures.delete' }, schema: { params: FixtureParams, response: data(Deleted) } },
    async (request) => {
      requireFixture(request.params.id)
      immediateTransaction(ctx.db, () => repo.delete(request.params.id))
      return { data: { deleted: true } }
    },
  )
}
