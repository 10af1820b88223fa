// Bundles the CLI into out/cli/cli.js for a fast cold start: Node then loads one file instead of the
// TypeScript sources and the hundreds of modules of Fastify, Ajv and TypeBox (resolving and reading
// them was most of the start: 390 -> 295 ms to the first 200). Dependencies with native parts, that
// are loaded lazily, or that read files beside their modules stay in node_modules. Its entry,
// out/cli/cli.js, is a stub (cli-start.ts) that turns on Node's compile cache and then loads the rest,
// a chunk of its own, so that the cache covers it. The media worker (media/media-worker.ts) is a second
// entry, out/cli/media-worker.js, beside the chunk whose pool starts it (media/media-queue.ts finds it
// there); what both use lands in a chunk they share.
import { builtinModules } from 'node:module'
import { defineConfig, type Plugin } from 'vite'

/**
 * Fastify's server.js requires node:https and node:http2 when it loads, for the servers it makes only
 * when asked (`https`, `http2` options, which the emulator never gives): with TLS they were a few percent
 * of the cold start. There, each is a stand-in that requires the real module on first use.
 */
function lazyBuiltinsOfFastify(): Plugin {
  const LAZY = new Set(['node:https', 'node:http2'])
  const PREFIX = '\0lazy-builtin:'
  return {
    name: 'lazy-builtins-of-fastify',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!LAZY.has(source)) return null
      // Elsewhere (and in the stand-in itself) the real module, left to Node like every builtin.
      return importer?.replace(/\\/g, '/').endsWith('/fastify/lib/server.js') ? PREFIX + source : { id: source, external: true }
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null
      const name = JSON.stringify(id.slice(PREFIX.length))
      return `let real\nmodule.exports = new Proxy({}, { get: (_, key) => (real ??= require(${name}))[key] })\n`
    },
  }
}

const external = [
  ...builtinModules,
  // (node:https and node:http2 are left to lazyBuiltinsOfFastify, which says where each is external.)
  ...builtinModules.map((m) => `node:${m}`).filter((m) => m !== 'node:https' && m !== 'node:http2'),
  'better-sqlite3',
  /^@faker-js\/faker/,
  /^gpt-tokenizer/,
  // They read their own files (Swagger UI's assets) beside their modules.
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/static',
]

export default defineConfig({
  plugins: [lazyBuiltinsOfFastify()],
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    rollupOptions: {
      input: { cli: 'src/emulator/cli-start.ts', 'media-worker': 'src/emulator/media/media-worker.ts' },
      external,
      output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', format: 'es' },
    },
  },
  ssr: { noExternal: true },
})
