// The desktop shell: hosts the emulator in-process, shows its inspector in a hardened window and sits
// in the tray. The only file that imports Electron; the decisions live in small plain modules next to
// it (ports, window-options, shutdown, tray-menu), tested in Node.
//
// There is no IPC and no preload: the window is an ordinary web page of the emulator and talks to it
// over HTTP, like a browser tab would. The admin API needs no token today. If one is ever added, it
// must not be handed to pages (no preload exposing it, no injection into other origins); the window
// only ever shows the emulator's own origin, and a token would belong to that origin's requests alone.
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  Menu,
  nativeImage,
  session,
  shell,
  Tray,
  type Event,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron'
import { startEmulator, type RunningEmulator } from '../emulator/index.ts'
import { PREFERRED_PORT, startOnFreePort, type PortChoice } from './ports.ts'
import { createShutdown } from './shutdown.ts'
import { apiUrl, trayMenuTemplate, trayTooltip, type TrayAction, type TrayItem, type TrayState } from './tray-menu.ts'
import { isAllowedNavigation, isExternalLink, isPermissionAllowed, WINDOW_TITLE, windowOptions, withCsp } from './window-options.ts'
import trayIconPath from './assets/tray.png?asset'
import windowIconPath from './assets/icon.png?asset'

let emulator: RunningEmulator | null = null
/** The emulator's origin (http://127.0.0.1:<port>): the only one the window may show. */
let appOrigin: string | null = null
let starting: Promise<RunningEmulator | null> | null = null
let mainWindow: BrowserWindow | null = null
let tray: Tray | null = null
let trayState: TrayState = { status: 'starting' }
/** Set just before the final app.quit(), which before-quit then lets through. */
let readyToQuit = false

const shutdown = createShutdown({
  closeWindows() {
    for (const window of BrowserWindow.getAllWindows()) window.destroy()
    tray?.destroy()
    tray = null
  },
  // Waits for a start still under way, so a quit during startup does not leave a server behind.
  async closeEmulator() {
    const running = emulator ?? (await starting)
    emulator = null
    await running?.close()
  },
  quit() {
    readyToQuit = true
    app.quit()
  },
  onProblem: (message) => console.warn(`[shutdown] ${message}`),
})

// ---- window -------------------------------------------------------------------------------------

function openWindow(): void {
  if (!emulator) return
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.show()
    mainWindow.focus()
    return
  }
  const window = new BrowserWindow({ ...windowOptions(), ...(process.platform === 'linux' && { icon: windowIconPath }) })
  window.once('ready-to-show', () => window.show())
  window.webContents.once('did-fail-load', () => window.show())
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null
  })
  mainWindow = window
  void window.loadURL(emulator.uiUrl)
}

/** Every web contents (the window, and any other that might appear) stays on the emulator's origin. */
function guardContents(contents: WebContents): void {
  const guard = (event: Event, url: string) => {
    if (appOrigin !== null && isAllowedNavigation(url, appOrigin)) return
    event.preventDefault()
    if (isExternalLink(url, appOrigin ?? undefined)) void shell.openExternal(url)
  }
  contents.on('will-navigate', (event) => guard(event, event.url))
  contents.on('will-redirect', (event) => guard(event, event.url))
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // No new windows at all: links to other sites open in the system browser, the rest goes nowhere.
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url, appOrigin ?? undefined)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

function hardenSession(): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(appOrigin !== null && isPermissionAllowed(permission, details.requestingUrl, appOrigin)),
  )
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => appOrigin !== null && isPermissionAllowed(permission, requestingOrigin, appOrigin))
  ses.setDevicePermissionHandler(() => false)
  // The emulator sends a CSP for its UI; the window adds its own (stricter) to every response of the
  // emulator's origin, so an API response opened in the window is held to it too.
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (appOrigin !== null && isAllowedNavigation(details.url, appOrigin)) callback({ responseHeaders: withCsp(details.responseHeaders) })
    else callback({})
  })
}

// ---- tray ---------------------------------------------------------------------------------------

const trayActions: Record<TrayAction, () => void> = {
  'open-window': () => openWindow(),
  'copy-api-url': () => {
    if (emulator) void clipboard.writeText(apiUrl(emulator.url))
  },
  reset: () => void resetEmulator(),
  quit: () => void shutdown(),
}

const toMenuItem = (item: TrayItem): MenuItemConstructorOptions =>
  item.type === 'separator' ? { type: 'separator' } : { label: item.label, enabled: item.enabled, ...(item.action && { click: trayActions[item.action] }) }

function setTrayState(state: TrayState): void {
  trayState = state
  if (!tray) return
  tray.setToolTip(trayTooltip(state))
  tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(state).map(toMenuItem)))
}

function createTray(): void {
  let icon = nativeImage.createFromPath(trayIconPath)
  // macOS menu bar icons are 16 pt; the 32 px file is the @2x size.
  if (process.platform === 'darwin') icon = icon.resize({ width: 16, height: 16 })
  tray = new Tray(icon)
  // Windows opens on click; Linux and macOS show the menu.
  tray.on('click', () => openWindow())
  setTrayState(trayState)
}

async function resetEmulator(): Promise<void> {
  if (!emulator || trayState.status !== 'running') return
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    title: WINDOW_TITLE,
    message: 'Reset the emulator?',
    detail: 'Accounts, keys, usage and every other change go back to the seed. The database file stays where it is.',
    buttons: ['Reset', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  })
  if (response !== 0 || !emulator || trayState.status !== 'running') return
  const running = trayState
  setTrayState({ ...running, resetting: true })
  try {
    await emulator.reset()
  } catch (error) {
    dialog.showErrorBox('Reset failed', (error as Error).message)
  } finally {
    setTrayState({ ...running, resetting: false })
  }
}

// ---- start --------------------------------------------------------------------------------------

function showFallback(choice: PortChoice<RunningEmulator>): void {
  if (!choice.fellBack) return
  const options = {
    type: 'info' as const,
    title: WINDOW_TITLE,
    message: `Port ${PREFERRED_PORT} is in use: the emulator runs on ${choice.emulator.url}`,
    detail: `${choice.reason ?? ''}\n\nPoint your clients at ${apiUrl(choice.emulator.url)} for this session.`,
  }
  void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options))
}

async function start(): Promise<void> {
  hardenSession()
  createTray()
  starting = startOnFreePort(startEmulator, {
    options: { db: join(app.getPath('userData'), 'emulator.db'), logLevel: 'warn' },
  }).then(
    (choice) => {
      emulator = choice.emulator
      appOrigin = new URL(choice.emulator.url).origin
      setTrayState({ status: 'running', url: choice.emulator.url, ...(choice.fellBack && { fellBackFrom: PREFERRED_PORT }) })
      openWindow()
      showFallback(choice)
      return choice.emulator
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      setTrayState({ status: 'failed', error: message })
      dialog.showErrorBox('The emulator could not start', message)
      void shutdown()
      return null
    },
  )
  await starting
}

// Renderers are sandboxed even if a window were ever created without the options above.
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  // Another copy is running: it gets the 'second-instance' event and shows its window.
  app.quit()
} else {
  app.on('second-instance', () => openWindow())
  app.on('web-contents-created', (_event, contents) => guardContents(contents))
  // macOS: a click on the Dock icon brings the window back.
  app.on('activate', () => openWindow())
  // macOS apps live on without windows (here: in the menu bar); elsewhere closing the window quits.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') void shutdown()
  })
  app.on('before-quit', (event) => {
    if (readyToQuit) return
    event.preventDefault()
    void shutdown()
  })
  void app.whenReady().then(start)
}
