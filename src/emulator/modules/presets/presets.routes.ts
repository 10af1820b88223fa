// The presets API: a preset (or its next version) made from a request body of chat completions, the
// Messages API or the Responses API (management key), and the account's presets and versions read
// with any key of the account.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import type { PresetContent } from './presets-config.service.ts'
import { presetVersionNotFound } from './presets.errors.ts'
import {
  ChatPresetBody,
  MessagesPresetBody,
  PresetCreatedResponse,
  PresetListQuery,
  PresetListResponse,
  PresetParams,
  PresetResponse,
  PresetVersionListResponse,
  PresetVersionParams,
  PresetVersionResponse,
  ResponsesPresetBody,
} from './presets.schemas.ts'
import { createVersion, presetView, presetWithVersion, requirePreset, versionView } from './presets.service.ts'

/** Bodies are whole inference requests (their messages may carry images as data URIs), of which little is kept. */
const PRESET_BODY_LIMIT = 32 * 1024 * 1024

export const presetsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.presets.repo
  const tags = ['presets']

  app.get(
    '/presets',
    {
      config: { operation: 'presets.list', auth: 'any' },
      schema: { summary: 'List presets', tags, querystring: PresetListQuery, response: PresetListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const rows = repo.list(account.id, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map(presetView), total_count: repo.count(account.id) }
    },
  )

  app.get(
    '/presets/:slug',
    {
      config: { operation: 'presets.get', auth: 'any' },
      schema: { summary: 'Get a preset with its designated version', tags, params: PresetParams, response: PresetResponse },
    },
    async (request) => ({ data: presetWithVersion(repo, requirePreset(repo, caller(request).account.id, request.params.slug)) }),
  )

  // One create per API: the body is that API's request (checked by its schema before `read` runs),
  // read into the preset's fields by that API's own names.
  const creates = [
    {
      path: 'chat/completions',
      api: 'chat',
      schema: ChatPresetBody,
      summary: 'a chat completions request body',
    },
    {
      path: 'messages',
      api: 'messages',
      schema: MessagesPresetBody,
      summary: 'a Messages API request body',
    },
    {
      path: 'responses',
      api: 'responses',
      schema: ResponsesPresetBody,
      summary: 'a Responses API request body',
    },
  ] as const
  for (const create of creates) {
    // The body is read by its own surface (its preset port, registered with the text engine).
    const port = ctx.services.text.ports.surface(create.api)?.preset
    if (!port) throw new Error(`text surface ${create.api} has no preset port`)
    app.post(
      `/presets/:slug/${create.path}`,
      {
        config: { operation: `presets.${create.api}.create`, auth: 'management' },
        bodyLimit: PRESET_BODY_LIMIT,
        schema: {
          summary: `Create a preset, or its next version, from ${create.summary}`,
          tags,
          params: PresetParams,
          body: create.schema,
          response: PresetCreatedResponse,
        },
      },
      async (request) => {
        return { data: createVersion(ctx, repo, caller(request), request.params.slug, port.read(request.body) as PresetContent) }
      },
    )
  }

  app.get(
    '/presets/:slug/versions',
    {
      config: { operation: 'presets.versions.list', auth: 'any' },
      schema: { summary: "List a preset's versions", tags, params: PresetParams, querystring: PresetListQuery, response: PresetVersionListResponse },
    },
    async (request) => {
      const preset = requirePreset(repo, caller(request).account.id, request.params.slug)
      const rows = repo.versions(preset.id, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map(versionView), total_count: repo.versionCount(preset.id).n }
    },
  )

  app.get(
    '/presets/:slug/versions/:version',
    {
      config: { operation: 'presets.versions.get', auth: 'any' },
      schema: { summary: 'Get a version of a preset', tags, params: PresetVersionParams, response: PresetVersionResponse },
    },
    async (request) => {
      const { slug } = request.params
      const number = Number(request.params.version)
      const version = repo.version(requirePreset(repo, caller(request).account.id, slug).id, number)
      if (!version) throw presetVersionNotFound(slug, number)
      return { data: versionView(version) }
    },
  )
}
