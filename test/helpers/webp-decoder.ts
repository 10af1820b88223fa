// libwebp's own decoder, to prove the emulator's WebP files open: the WebAssembly build playwright-core
// ships (node_modules/playwright-core/lib/webp_codec.wasm, BSD licensed), loaded here without its
// Emscripten glue. Its imports and exports have minified names: a.b grows the heap; h, i, j, k, l are
// encode, decode, free (of a result), malloc and free; g runs the module's constructors.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** What is used of WebAssembly (the project's TypeScript libraries do not declare it). */
interface Memory {
  buffer: ArrayBuffer
  grow(pages: number): number
}
interface Wasm {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> }
}
const wasmApi = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly

interface Codec {
  memory: Memory
  decode(input: number, length: number, width: number, height: number): number
  release(pointer: number): void
  malloc(bytes: number): number
  free(pointer: number): void
}

let codec: Codec | undefined

function load(): Codec {
  const require = createRequire(import.meta.url)
  const wasm = readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'lib', 'webp_codec.wasm'))
  let memory: Memory | undefined
  const grow = (requested: number): number => {
    const buffer = memory!.buffer.byteLength
    if (requested <= buffer) return 1
    memory!.grow(Math.ceil((requested - buffer) / 65536))
    return 1
  }
  const fail = (): never => {
    throw new Error('libwebp aborted')
  }
  const instance = new wasmApi.Instance(new wasmApi.Module(wasm), { a: { a: () => 0, b: grow, c: fail, d: () => undefined, e: fail } })
  const e = instance.exports
  memory = e.f as Memory
  ;(e.g as () => void)()
  return {
    memory,
    decode: e.i as Codec['decode'],
    release: e.j as Codec['release'],
    malloc: e.k as Codec['malloc'],
    free: e.l as Codec['free'],
  }
}

/** Decodes a WebP file (lossy or lossless) to RGBA with libwebp; throws when libwebp refuses it. */
export function decodeWebp(file: Buffer): { width: number; height: number; data: Buffer } {
  const c = (codec ??= load())
  const input = c.malloc(file.length)
  new Uint8Array(c.memory.buffer).set(file, input)
  const sizes = c.malloc(8)
  const output = c.decode(input, file.length, sizes, sizes + 4)
  const view = new DataView(c.memory.buffer)
  const width = view.getUint32(sizes, true)
  const height = view.getUint32(sizes + 4, true)
  const data = output ? Buffer.from(new Uint8Array(c.memory.buffer, output, width * height * 4)) : null
  if (output) c.release(output)
  c.free(input)
  c.free(sizes)
  if (!data) throw new Error('libwebp could not decode the file')
  return { width, height, data }
}
