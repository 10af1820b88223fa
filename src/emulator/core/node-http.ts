// node:http and node:https, loaded with require: an ESM import of either evaluates every export,
// including the lazy WebSocket ones that load Node's whole fetch stack (undici, ~35 ms of a cold
// start), which the emulator never uses.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export const http = require('node:http') as typeof import('node:http')
export const https = require('node:https') as typeof import('node:https')
