// POST /api/v1/audio/speech and POST /api/v1/audio/transcriptions (standard key). The transcription
// route takes JSON or a multipart form; the form parser is registered in its scope only.
import fastifyMultipart from '@fastify/multipart'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifySchemaCompiler } from 'fastify'
import type { EmulatorContext } from '../module.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { caller } from '../../http/auth.ts'
import { keepMedia } from '../../journal/journal.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { validatorCompiler } from '../../http/validation.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { installMediaJsonParser } from '../../http/media-body.ts'
import { transcriptionBodyRequired, unsupportedContentType } from './audio.errors.ts'
import { MAX_BASE64_CHARS, SpeechBody, SpeechResponse, TranscriptionRequest, TranscriptionResponse, type TranscriptionBody } from './audio.schemas.ts'
import { createSpeech } from './audio-speech.service.ts'
import { askFromForm, askFromJson, refuseOversizedForm, TRANSCRIPTION_MEDIA } from './audio-transcription.input.ts'
import { createTranscription } from './audio-transcription.service.ts'

/** Room for the document's 20 MiB voice references (which no endpoint takes, but the answer is a 404, not a 413). */
const SPEECH_BODY_LIMIT = 24 * 1024 * 1024
const TRANSCRIPTION_BODY_LIMIT = MAX_BASE64_CHARS + 64 * 1024

/** A form is checked once it has been read (in the handler), not by the body validator. */
const formsCheckedLater: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' && (route as { contentType?: string }).contentType === 'multipart/form-data'
    ? () => ({ value: undefined })
    : validatorCompiler(route)

export const audioRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  // Any other body is refused in words that name what each route takes.
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(
      unsupportedContentType(request.routeOptions.config.operation === 'audio.transcriptions' ? 'application/json or multipart/form-data' : 'application/json'),
      undefined,
    )
  })

  app.post(
    '/audio/speech',
    {
      config: { operation: 'audio.speech', auth: 'standard', recordable: 'tts' },
      bodyLimit: SPEECH_BODY_LIMIT,
      schema: { summary: 'Create speech: text in, audio bytes out', tags: ['audio'], body: SpeechBody, response: SpeechResponse },
    },
    async (request, reply) => {
      const speech = await createSpeech(ctx, caller(request), request.body, isEuRequest(request.raw) ? 'eu' : null, requestOrigin(request), (playable) =>
        keepMedia(request, playable),
      )
      return (reply as FastifyReply)
        .header('x-generation-id', speech.generationId)
        .type(speech.contentType)
        .header('content-length', speech.length)
        .send(speech.body)
    },
  )

  // A scope of its own, so only this route parses forms (and JSON whose audio is bounded as it arrives);
  // its bodies wait their turn at the gate before they are read.
  await app.register(async (forms) => {
    await forms.register(fastifyMultipart, { throwFileSizeLimit: true })
    installMediaJsonParser(forms, TRANSCRIPTION_MEDIA)
    gateBodies(forms, ctx)
    forms.post(
      '/audio/transcriptions',
      {
        config: { operation: 'audio.transcriptions', auth: 'standard', recordable: 'stt' },
        bodyLimit: TRANSCRIPTION_BODY_LIMIT,
        // A form's own bound is smaller than JSON's: refused from its declared length, before the gate.
        preParsing: refuseOversizedForm,
        validatorCompiler: formsCheckedLater,
        schema: { summary: 'Create a transcription: audio in, text out', tags: ['audio'], body: TranscriptionRequest, response: TranscriptionResponse },
      },
      async (request, reply) => {
        let ask
        if (request.isMultipart()) ask = await askFromForm(request)
        else if (request.body === undefined || request.body === null) throw transcriptionBodyRequired()
        else ask = await askFromJson(request.body as TranscriptionBody)
        const answer = await createTranscription(ctx, caller(request), ask, isEuRequest(request.raw) ? 'eu' : null, requestOrigin(request))
        // Bytes written as the schema would write them (audio-transcription.service.ts: answerBody), sent piece by piece.
        return (reply as FastifyReply)
          .header('x-generation-id', answer.generationId)
          .type('application/json; charset=utf-8')
          .header('content-length', answer.body.byteLength)
          .send(answer.body)
      },
    )
  })
}
