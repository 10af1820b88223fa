// npm start: runs the bundled CLI, building it first when it is missing or older than the sources.
import { pathToFileURL } from 'node:url'
import { ensureCliBundle } from './cli-bundle.mjs'

await import(pathToFileURL(ensureCliBundle()).href)
