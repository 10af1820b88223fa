// node:http and node:https, loaded with require: an ESM import of either evaluates every export,
// including the lazy WebSocket ones that load Node's whole fetch stack (undici, ~35 ms of a cold
// start), which the emulator never uses.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export const http = require('node:http') as typeof import('node:http')
let httpsModule: typeof import('node:https') | undefined
/**
 * node:https on first use (a callback or an upstream over TLS): it loads Node's TLS, a few percent of a
 * cold start, which a start that never calls out that way does not need.
 */
export const https = new Proxy({} as typeof import('node:https'), {
  get: (_target, key) => Reflect.get((httpsModule ??= require('node:https') as typeof import('node:https')), key) as unknown,
})
