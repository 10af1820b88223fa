// The recordings under /_emulator/api/recordings: what the --replay folder holds (each file, its
// operation and model, its uses), where a miss goes, and a reload on demand (the folder is also
// watched). The upstream is shown as its origin only, never with its key.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { ErrorEnvelope } from '../../http/schemas.ts'
import { RecordingsList } from './recordings.schemas.ts'

export const recordingsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  // The folder's watcher ends with the app.
  app.addHook('onClose', async () => ctx.services.recordings.close())
  const listed = () => {
    const data = ctx.services.recordings.list()
    return { data, total_count: data.length, folder: ctx.services.recordings.folder, on_miss: ctx.services.recordings.onMiss, upstream: ctx.config.upstream }
  }

  app.get(
    '/recordings',
    {
      config: { operation: 'admin.recordings.list' },
      schema: { summary: 'List the loaded recordings', response: { 200: RecordingsList, '4xx': ErrorEnvelope } },
    },
    async () => listed(),
  )

  app.post(
    '/recordings/reload',
    {
      config: { operation: 'admin.recordings.reload' },
      schema: {
        summary: 'Read the --replay folder again (a malformed file is a 400, and the loaded recordings stay)',
        response: { 200: RecordingsList, '4xx': ErrorEnvelope },
      },
    },
    async () => {
      await ctx.services.recordings.reload()
      return listed()
    },
  )
}
