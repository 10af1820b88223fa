// Fault rules under /_emulator/api/faults: list, create, read, update, enable/disable, delete, and
// presets for the common cases, each one call. Every rule explains itself in one sentence.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { toIso } from '../core/clock.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { data, Deleted, OptionalBody } from '../http/schemas.ts'
import { explain, PRESETS, type FaultRow } from './faults.ts'
import { CreateFaultBody, FaultPreset, FaultRule, PresetBody, UpdateFaultBody, type FaultAction, type FaultMatch } from './faults.schemas.ts'
import { faultDoesNothing, faultRuleNotFound, latencyRangeReversed, streamFaultNeedsAnEnd, streamFaultNeedsAWhen, unknownFaultPreset } from './faults.errors.ts'

const Params = Type.Object({ id: Type.String() })

export function faultView(row: FaultRow): FaultRule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    match: JSON.parse(row.match) as FaultMatch,
    action: JSON.parse(row.action) as FaultAction,
    probability: row.probability,
    remaining: row.remaining,
    expires_at: row.expires_at === null ? null : toIso(row.expires_at),
    hits: row.hits,
    evaluations: row.evaluations,
    explanation: explain(row),
    created_at: toIso(row.created_at),
    updated_at: row.updated_at === null ? null : toIso(row.updated_at),
  }
}

export const faultsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.faults
  const requireRule = (id: string): FaultRow => {
    const row = repo.get(id)
    if (!row) throw faultRuleNotFound(id)
    return row
  }
  const checkAction = (action: FaultAction) => {
    if (action.stream && action.status === undefined && !action.stream.cut) {
      throw streamFaultNeedsAnEnd()
    }
    if (action.stream && action.stream.after_chunks === undefined && action.stream.after_ms === undefined) {
      throw streamFaultNeedsAWhen()
    }
    if (action.status === undefined && action.latency_ms === undefined && !action.latency_range_ms && !action.drop && !action.stream?.cut) {
      throw faultDoesNothing()
    }
    if (action.latency_range_ms && action.latency_range_ms.min > action.latency_range_ms.max) {
      throw latencyRangeReversed()
    }
  }
  const create = (body: {
    name?: string | null
    match?: object
    action: object
    enabled?: boolean
    probability?: number
    remaining?: number | null
    expires_at?: string | null
  }): FaultRow => {
    checkAction(body.action)
    const row: FaultRow = {
      id: ctx.ids.uuid(ctx.ids.next('fault')),
      name: body.name ?? null,
      enabled: body.enabled === false ? 0 : 1,
      match: JSON.stringify(body.match ?? {}),
      action: JSON.stringify(body.action),
      probability: body.probability ?? 1,
      remaining: body.remaining ?? null,
      expires_at: body.expires_at ? Date.parse(body.expires_at) : null,
      evaluations: 0,
      hits: 0,
      created_at: ctx.clock.now(),
      updated_at: null,
    }
    repo.insert(row)
    return row
  }

  app.get('/faults', { config: { operation: 'admin.faults.list' }, schema: { response: data(Type.Array(FaultRule)) } }, async () => ({
    data: repo.list().map(faultView),
  }))

  app.post(
    '/faults',
    { config: { operation: 'admin.faults.create' }, schema: { response: data(FaultRule, 201), body: CreateFaultBody } },
    async (request, reply) => reply.code(201).send({ data: faultView(create(request.body)) }),
  )

  app.get('/faults/presets', { config: { operation: 'admin.faults.presets' }, schema: { response: data(Type.Array(FaultPreset)) } }, async () => ({
    data: Object.entries(PRESETS).map(([id, preset]): FaultPreset => ({ id, ...preset })),
  }))

  app.post(
    '/faults/presets/:preset',
    {
      config: { operation: 'admin.faults.preset' },
      schema: { response: data(FaultRule, 201), params: Type.Object({ preset: Type.String() }), body: OptionalBody(PresetBody) },
    },
    async (request, reply) => {
      const preset = PRESETS[request.params.preset]
      if (!preset) throw unknownFaultPreset(request.params.preset, Object.keys(PRESETS))
      return reply.code(201).send({ data: faultView(create({ name: preset.name, action: preset.action, ...request.body })) })
    },
  )

  app.get('/faults/:id', { config: { operation: 'admin.faults.get' }, schema: { response: data(FaultRule), params: Params } }, async (request) => ({
    data: faultView(requireRule(request.params.id)),
  }))

  app.patch(
    '/faults/:id',
    { config: { operation: 'admin.faults.update' }, schema: { response: data(FaultRule), params: Params, body: UpdateFaultBody } },
    async (request) => {
      const row = requireRule(request.params.id)
      const body = request.body
      if (body.action) checkAction(body.action)
      const next: FaultRow = {
        ...row,
        name: body.name === undefined ? row.name : body.name,
        enabled: body.enabled === undefined ? row.enabled : body.enabled ? 1 : 0,
        match: body.match === undefined ? row.match : JSON.stringify(body.match),
        action: body.action === undefined ? row.action : JSON.stringify(body.action),
        probability: body.probability ?? row.probability,
        remaining: body.remaining === undefined ? row.remaining : body.remaining,
        expires_at: body.expires_at === undefined ? row.expires_at : body.expires_at === null ? null : Date.parse(body.expires_at),
        updated_at: ctx.clock.now(),
      }
      repo.update(next)
      return { data: faultView(requireRule(row.id)) }
    },
  )

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(
      `/faults/:id/${verb}`,
      { config: { operation: `admin.faults.${verb}` }, schema: { params: Params, response: data(FaultRule) } },
      async (request) => {
        const row = requireRule(request.params.id)
        repo.update({ ...row, enabled: enabled ? 1 : 0, updated_at: ctx.clock.now() })
        return { data: faultView(requireRule(row.id)) }
      },
    )
  }

  app.delete('/faults/:id', { config: { operation: 'admin.faults.delete' }, schema: { response: data(Deleted), params: Params } }, async (request) => {
    requireRule(request.params.id)
    repo.delete(request.params.id)
    return { data: { deleted: true } }
  })

  app.delete('/faults', { config: { operation: 'admin.faults.clear' }, schema: { response: data(Deleted) } }, async () => {
    repo.clear()
    return { data: { deleted: true } }
  })
}
