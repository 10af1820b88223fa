// Admin side of state export and import (under /_emulator/api): the whole state as one JSON
// document (downloaded, or written atomically to a file), and a document imported back in its place.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import { exportState, exportStateToFile, importState } from './state.ts'
import { data, ErrorEnvelope, OpenObject, Shape } from '../../http/schemas.ts'

/** A state with a long history is large; an import takes up to 256 MB. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024

const ExportFileBody = Type.Object({ path: Type.String({ minLength: 1 }) })

// A download: the long form names its media type.
const EXPORT_DOCUMENT = {
  description: 'The whole state: {"format":"model-gateway-emulator/state",...}, as POST /import takes it',
  content: { 'application/json': { schema: OpenObject('The state document') } },
}

export const stateAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/export',
    { config: { operation: 'admin.state.export' }, schema: { response: { 200: EXPORT_DOCUMENT, '4xx': ErrorEnvelope } } },
    async (_request, reply) =>
      reply.type('application/json').header('content-disposition', 'attachment; filename="emulator-state.json"').send(exportState(ctx)),
  )

  app.post(
    '/export',
    {
      config: { operation: 'admin.state.exportFile' },
      schema: { response: data(Shape({ path: Type.String(), bytes: Type.Integer() })), body: ExportFileBody },
    },
    async (request) => ({
      data: await exportStateToFile(ctx, request.body.path),
    }),
  )

  app.post(
    '/import',
    {
      config: { operation: 'admin.state.import' },
      schema: {
        response: data(Shape({ imported: Type.Boolean(), tables: Type.Record(Type.String(), Type.Integer(), { description: 'Rows imported, by table' }) })),
      },
      bodyLimit: IMPORT_BODY_LIMIT,
    },
    async (request) => ({
      data: { imported: true, tables: importState(ctx, request.body) },
    }),
  )
}
