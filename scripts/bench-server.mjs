// Bare Fastify routes for `npm run bench`, in a process of their own like the emulator they are
// compared with: each answers fixed bytes, the ceiling of a Node HTTP server on this machine. Plain
// JavaScript, so no TypeScript loader is counted in its memory. The routes ({ method, url, type, base64 })
// come in the first IPC message (bodies are too large for the command line); the URL goes back.
import Fastify from 'fastify'

// oxlint-disable-next-line typescript/no-misused-promises -- the child does nothing else: a failure ends it
process.once('message', async (routes) => {
  // The same body limit as the emulator's embeddings route, so bodies are read the same way.
  const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 })
  for (const route of routes) {
    const body = Buffer.from(route.base64, 'base64')
    app.route({ method: route.method, url: route.url, handler: (_request, reply) => reply.type(route.type).send(body) })
  }
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.send(`http://127.0.0.1:${app.server.address().port}`)
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
})
