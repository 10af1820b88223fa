// Admin side of presets (under /_emulator/api): one account's presets, each with all its versions,
// read without a key and without going through the gateway (the inspector's Data view).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { requireAccount } from '../accounts/accounts.service.ts'
import { page } from '../../http/schemas.ts'
import { AccountPreset, MAX_VERSIONS } from './presets.schemas.ts'
import { presetView, versionView } from './presets.service.ts'

export const presetsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.presets.repo
  app.get(
    '/accounts/:id/presets',
    { config: { operation: 'admin.accounts.presets' }, schema: { response: page(AccountPreset), params: AccountParams } },
    async (request) => {
      const account = requireAccount(ctx, request.params.id)
      const data: AccountPreset[] = repo.list(account.id, repo.count(account.id), 0).map((row) => ({
        ...presetView(row),
        versions: repo.versions(row.id, MAX_VERSIONS, 0).map(versionView),
      }))
      return { data, total_count: data.length }
    },
  )
}
