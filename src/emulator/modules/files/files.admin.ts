// The admin API's files: a file "created server-side" (as code execution makes them on the real
// gateway), which, unlike an upload, is downloadable: so a test can fetch GET /files/{id}/content.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { fieldError } from '../../core/errors.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { installMediaJsonParser, type MediaBody } from '../../http/media-body.ts'
import { data } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { requireAccount } from '../accounts/accounts.service.ts'
import { defaultWorkspace, requireWorkspace } from '../organization/organization-workspace.service.ts'
import { MAX_FILE_BASE64_CHARS, OpenRouterFile, ServerFileBody } from './files.schemas.ts'
import { anthropicLikeView, decodeBase64, keepFile, sniffUpload } from './files.service.ts'

const AccountParams = Type.Object({ id: Type.String() })

/** The bytes arrive as they are sent (media-body.ts), bounded as they arrive; the rest of the body at most 64 KB. */
const SERVER_FILE_MEDIA: MediaBody = {
  fields: [
    { path: 'content_base64', maxChars: MAX_FILE_BASE64_CHARS, refuse: (field) => fieldError(field, `must be at most ${MAX_FILE_BASE64_CHARS} characters`) },
  ],
  otherBytes: 64 * 1024,
}

export const filesAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  installMediaJsonParser(app, SERVER_FILE_MEDIA)
  // Its bodies queue with the account's uploads (the account is the path's).
  gateBodies(app, ctx, (request) => (request.params as { id?: string }).id)
  app.post(
    '/accounts/:id/files',
    {
      config: { operation: 'admin.files.create' },
      bodyLimit: MAX_FILE_BASE64_CHARS + 64 * 1024,
      schema: { params: AccountParams, body: ServerFileBody, response: data(OpenRouterFile, 201) },
    },
    async (request, reply) => {
      const account = requireAccount(ctx, request.params.id)
      const body = request.body
      if (body.content_base64 === '') throw fieldError('content_base64', 'must NOT have fewer than 1 characters')
      const bytes = await decodeBase64(body.content_base64)
      if (bytes === null) throw fieldError('content_base64', 'is not valid base64')
      const workspace =
        body.workspace_id === undefined ? defaultWorkspace(ctx, account.id) : requireWorkspace(ctx, account.id, body.workspace_id, 'workspace_id')
      // Server-side files may be of any type: what the bytes do not say is plain bytes.
      const mimeType = (await sniffUpload(ctx, account.id, bytes)) ?? 'application/octet-stream'
      const row = await keepFile(
        ctx,
        { account_id: account.id, workspace_id: workspace, provider: body.provider ?? 'openrouter' },
        { filename: body.filename, bytes, purpose: 'assistants_output', downloadable: true, mimeType },
      )
      return reply.code(201).send({ data: anthropicLikeView(row, 'openrouter') })
    },
  )
}
