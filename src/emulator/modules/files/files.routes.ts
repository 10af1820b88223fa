// The Files API (any key): POST /files (a multipart upload; the form parser is registered in this
// scope only), GET /files, GET and DELETE /files/{file_id}, and GET /files/{file_id}/content. Files
// belong to a workspace of the caller's account and to a storage (OpenRouter's, or a provider's). An
// upload's room is reserved from its declared length and it waits its turn before its body is read.
import fastifyMultipart from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler, preParsingHookHandler } from 'fastify'
import { caller } from '../../http/auth.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { declaredLength } from '../../http/body-limits.ts'
import { validatorCompiler } from '../../http/validation.ts'
import type { EmulatorContext } from '../module.ts'
import { contentStream } from './files-content.service.ts'
import { notAForm, notDownloadable } from './files.errors.ts'
import {
  FileContentResponse,
  FileDeletedResponse,
  FileListResponse,
  FileParams,
  FileResponse,
  ListQuery,
  MAX_FILE_BYTES,
  ScopeQuery,
  UploadRequest,
} from './files.schemas.ts'
import { attachment, deletedView, fileView, keepUpload, listFiles, readUpload, requireFile, scopeOf, shapeOf, UploadRoom } from './files.service.ts'

/** The form is read and checked in the handler, not by the body validator. */
const formsCheckedLater: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(route))

export const filesRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.files
  const tags = ['files']
  const any = { auth: 'any' as const }

  app.get(
    '/files',
    {
      config: { operation: 'files.list', ...any },
      schema: { summary: "List a workspace's files", tags, querystring: ListQuery, response: FileListResponse },
    },
    async (request) => listFiles(repo, scopeOf(ctx, caller(request), request.query), request.query, shapeOf(request, request.query)),
  )

  app.get(
    '/files/:file_id',
    {
      config: { operation: 'files.get', ...any },
      schema: { summary: "A file's metadata", tags, params: FileParams, querystring: ScopeQuery, response: FileResponse },
    },
    async (request) => fileView(requireFile(repo, scopeOf(ctx, caller(request), request.query), request.params.file_id), shapeOf(request, request.query)),
  )

  app.delete(
    '/files/:file_id',
    {
      config: { operation: 'files.delete', ...any },
      schema: { summary: 'Delete a file', tags, params: FileParams, querystring: ScopeQuery, response: FileDeletedResponse },
    },
    async (request) => {
      const scope = scopeOf(ctx, caller(request), request.query)
      ctx.db.transaction(() => repo.delete(requireFile(repo, scope, request.params.file_id).id)).immediate()
      return deletedView(request.params.file_id, shapeOf(request, request.query))
    },
  )

  app.get(
    '/files/:file_id/content',
    {
      config: { operation: 'files.content', ...any },
      schema: { summary: "A server-side file's bytes", tags, params: FileParams, querystring: ScopeQuery, response: FileContentResponse },
    },
    async (request, reply) => {
      const scope = scopeOf(ctx, caller(request), request.query)
      const file = requireFile(repo, scope, request.params.file_id)
      if (file.downloadable === 0) throw notDownloadable(file.id)
      // Bytes a client asked for, never a page of this origin: an attachment, not sniffed, sandboxed.
      // Sent a part at a time as the client takes them (files-content.service.ts).
      return (reply as FastifyReply)
        .type('application/octet-stream')
        .header('content-length', file.size_bytes)
        .header('content-disposition', attachment(file.filename))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(contentStream(ctx, scope, file))
    },
  )

  // Before an upload's body is read: the account's room, from its declared length (uploads under way
  // reserve theirs), then its turn at the gate (a few of one account's uploads are read at once).
  const room = new UploadRoom(repo)
  const reservations = new WeakMap<FastifyRequest, () => void>()
  const reserveRoom: preParsingHookHandler = (request, reply, payload, done) => {
    let release
    try {
      release = room.reserve(caller(request).account.id, declaredLength(request.headers))
    } catch (error) {
      // The room is full: a 413 before the body is read.
      return done(error as Error)
    }
    reservations.set(request, release)
    reply.raw.once('close', release)
    done(null, payload)
  }

  // A scope of its own, so only the upload parses forms.
  await app.register(async (forms) => {
    await forms.register(fastifyMultipart, { throwFileSizeLimit: true })
    // Any body but a form (JSON aside, which the gateway parses) is refused in words that say what to send.
    forms.addContentTypeParser('*', (_request, _payload, done) => done(notAForm(), undefined))
    gateBodies(forms, ctx)
    forms.post(
      '/files',
      {
        config: { operation: 'files.upload', ...any },
        // Room for the form around the largest file; the file's own bound is checked as it is read.
        bodyLimit: MAX_FILE_BYTES + 1024 * 1024,
        preParsing: reserveRoom,
        validatorCompiler: formsCheckedLater,
        schema: { summary: 'Upload a file', tags, querystring: ScopeQuery, body: UploadRequest, response: FileResponse },
      },
      async (request) => {
        if (!request.isMultipart()) throw notAForm()
        // The form's scope is a plugin of its own: its query is typed here.
        const query = request.query as ScopeQuery
        const scope = scopeOf(ctx, caller(request), query)
        const upload = await readUpload(request)
        const row = await keepUpload(ctx, scope, upload)
        // Kept: its bytes are the account's now, no longer a reservation.
        reservations.get(request)?.()
        return fileView(row, shapeOf(request, query))
      },
    )
  })
}
