// reply.sendFile for a scope, with @fastify/static (and @fastify/send, glob and the rest it requires)
// loaded on the first file sent rather than at start: the UI, the sample media and the docs' assets are
// often never asked for, and loading the package was a tenth of the CLI's cold start. The file is sent
// by @fastify/static's own sendFile (types, ETag, Last-Modified, ranges, never a path outside the root),
// exactly as when the plugin is registered: with `serve: false` the plugin only decorates the reply,
// so it runs once against a stand-in that keeps that decoration.
import { createRequire } from 'node:module'
import type {} from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'

type SendFile = FastifyReply['sendFile']
type StaticPlugin = (instance: object, options: object) => Promise<void>

const load = createRequire(import.meta.url)

/** @fastify/static's sendFile for files under `root`, made on first use. */
async function realSendFile(log: FastifyInstance['log'], root: string): Promise<SendFile> {
  const { fastifyStatic } = load('@fastify/static') as { fastifyStatic: StaticPlugin }
  let sendFile: SendFile | undefined
  const standIn = {
    log,
    decorateReply(name: string, value: SendFile) {
      if (name === 'sendFile') sendFile = value
    },
  }
  await fastifyStatic(standIn, { root, serve: false, index: false })
  return sendFile!
}

/** Decorates `app`'s replies with sendFile (as `app.register(fastifyStatic, { root, serve: false, index: false })` does). */
export function installSendFile(app: FastifyInstance, root: string): void {
  let real: Promise<SendFile> | undefined
  app.decorateReply('sendFile', function (this: FastifyReply, ...args: Parameters<SendFile>) {
    real ??= realSendFile(app.log, root)
    // Caught whole: a throw here, outside Fastify's hooks, would end the process.
    real
      .then((sendFile) => sendFile.apply(this, args))
      .catch((error: unknown) => {
        if (!this.sent) this.send(error)
      })
    return this
  } as SendFile)
}
