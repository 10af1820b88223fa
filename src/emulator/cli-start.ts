#!/usr/bin/env node
// The bundled CLI's entry (out/cli/cli.js): turns on Node's compile cache, then loads the CLI itself
// (out/cli/cli-*.js, 3.5 MB). The cache keeps V8's compiled code of the bundle and of the packages it
// loads in the OS's temporary folder (or NODE_COMPILE_CACHE), so a later start skips most of parsing
// and compiling them: 50 ms of the 390 it took to the first answer. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import './cli-heap.ts'
import { enableCompileCache, flushCompileCache } from 'node:module'

// A failure to set it up (a read-only temporary folder) only costs speed.
enableCompileCache()
await import('./cli.ts')
// Written now rather than at exit: a process stopped by SIGKILL would never write it.
flushCompileCache()
