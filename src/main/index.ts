// The desktop shell: hosts the emulator in-process and shows its inspector in a hardened window.
// Kept thin on purpose: everything that matters lives in src/emulator and is tested in Node.
import { join } from 'node:path'
import { app, BrowserWindow, shell } from 'electron'
import { startEmulator, type RunningEmulator } from '../emulator/index.ts'

let emulator: RunningEmulator | null = null

function createWindow(url: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Model Gateway Emulator',
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  })
  // The inspector is a web page of the emulator: nothing else may load in this window.
  window.webContents.on('will-navigate', (event, target) => {
    if (!target.startsWith(url)) event.preventDefault()
  })
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:\/\//.test(target)) void shell.openExternal(target)
    return { action: 'deny' }
  })
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  void window.loadURL(url)
  return window
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus())
  app.whenReady().then(async () => {
    emulator = await startEmulator({ db: join(app.getPath('userData'), 'emulator.db'), port: 8710, logLevel: 'warn' })
    createWindow(emulator.uiUrl)
  })
  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', (event) => {
    if (!emulator) return
    event.preventDefault()
    const closing = emulator
    emulator = null
    void closing.close().finally(() => app.quit())
  })
}
