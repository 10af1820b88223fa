// Bundles the CLI into out/cli/cli.js for a fast cold start: Node then loads one file instead of the
// TypeScript sources and TypeBox's hundreds of modules. Dependencies with native parts, or that are
// loaded lazily, stay in node_modules.
import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  'better-sqlite3',
  'fastify',
  'ajv',
  'ajv-formats',
  /^@faker-js\/faker/,
  /^gpt-tokenizer/,
  // They read their own files (Swagger UI's assets) beside their modules.
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/static',
]

export default defineConfig({
  build: {
    ssr: 'src/emulator/cli.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    rollupOptions: { external, output: { entryFileNames: 'cli.js', format: 'es' } },
  },
  ssr: { noExternal: ['typebox', '@fastify/type-provider-typebox'] },
})
