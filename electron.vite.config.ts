// Builds the desktop shell: the Electron main process (which hosts the emulator in-process) and the
// React renderer (the inspector UI, which the emulator also serves to any browser at /_emulator/).
// No preload: the window needs no bridge to Node (the builds pass --ignoreConfigWarning for that).
import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      // better-sqlite3 and fastify stay in node_modules (native addon, dynamic requires).
      externalizeDeps: true,
      // The media worker is an entry of its own, beside the code that starts it (media/media-queue.ts finds it there).
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          'media-worker': resolve(import.meta.dirname, 'src/emulator/media/media-worker.ts'),
        },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    // Served under /_emulator/ by the emulator and from file:// in the window: relative asset URLs fit both.
    base: './',
    plugins: [react()],
    build: { rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') } },
  },
})
