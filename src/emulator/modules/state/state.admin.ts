// Admin side of state export and import (under /_emulator/api): the whole state as one JSON
// document (downloaded as a stream, or streamed atomically to a file), and a document imported back in
// its place.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import { exportStateToFile, exportStream } from './state-export.service.ts'
import { importState } from './state.service.ts'
import { data, ErrorEnvelope, OpenObject, Shape } from '../../http/schemas.ts'
import { MAX_JSON_DEPTH } from '../../http/json-body.ts'
import { installStateDocumentParser } from './state-parse.service.ts'
import { IMPORT_BODY_LIMIT, MAX_IMPORT_VALUE_BYTES } from './state-bounds.service.ts'

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
    async (_request, reply) => {
      const document = await exportStream(ctx)
      return reply.type('application/json; charset=utf-8').header('content-disposition', 'attachment; filename="emulator-state.json"').send(document)
    },
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

  // In a scope of its own: its JSON body is read as it arrives (state-parse.service.ts), never as one text.
  await app.register(async (scope) => {
    installStateDocumentParser(scope, { valueBytes: MAX_IMPORT_VALUE_BYTES, depth: MAX_JSON_DEPTH })
    scope.post(
      '/import',
      {
        config: { operation: 'admin.state.import' },
        schema: {
          response: data(Shape({ imported: Type.Boolean(), tables: Type.Record(Type.String(), Type.Integer(), { description: 'Rows imported, by table' }) })),
        },
        bodyLimit: IMPORT_BODY_LIMIT,
      },
      async (request) => ({
        data: { imported: true, tables: await importState(ctx, request.body) },
      }),
    )
  })
}
