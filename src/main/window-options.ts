// The inspector window's hardening, as data and pure functions (the types come from Electron, the
// values do not, so tests run this in Node). The window shows one thing: the emulator's own pages.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron'

export const WINDOW_TITLE = 'Model Gateway Emulator'

/**
 * The page is a plain web app served by the emulator: it talks to it over HTTP (fetch, EventSource),
 * so it needs no Node, no preload and no IPC.
 */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  experimentalFeatures: false,
  safeDialogs: true,
  spellcheck: false,
} as const satisfies WebPreferences

export function windowOptions(): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: WINDOW_TITLE,
    // Shown once the first paint is ready, so the window never flashes white.
    show: false,
    webPreferences: { ...WEB_PREFERENCES },
  }
}

/**
 * The window's Content-Security-Policy. The emulator sends its own for /_emulator/ (src/emulator/http/ui.ts);
 * this one agrees with it on every directive both have (frame-ancestors 'none' included) and adds
 * base-uri and form-action, which the window needs and a browser tab can do without.
 */
export const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

const parse = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

const isHttp = (url: URL): boolean => url.protocol === 'http:' || url.protocol === 'https:'

/** The origin (scheme, host, port) of an http(s) URL, or null. */
export function originOf(url: string): string | null {
  const parsed = parse(url)
  return parsed && isHttp(parsed) ? parsed.origin : null
}

/** The window may only go to pages of the emulator itself: same scheme, host and port. */
export function isAllowedNavigation(target: string, appOrigin: string): boolean {
  const to = originOf(target)
  const app = originOf(appOrigin)
  return to !== null && app !== null && to === app
}

/**
 * An http(s) link to somewhere other than the emulator: it opens in the system browser. Anything else
 * (file:, javascript:, data:, custom schemes, the emulator's own pages) never leaves the app.
 */
export function isExternalLink(url: string, appOrigin?: string): boolean {
  const to = originOf(url)
  if (to === null) return false
  return appOrigin === undefined || to !== originOf(appOrigin)
}

/**
 * Adds the window's CSP to a response's headers. A CSP the emulator sent stays: the browser enforces
 * every policy it gets, so the page is held to both (the stricter wins on each directive).
 */
export function withCsp(headers: Record<string, string[]> | undefined, csp: string = WINDOW_CSP): Record<string, string[]> {
  const result: Record<string, string[]> = {}
  let own: string[] = []
  for (const [name, values] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') own = own.concat(values)
    else result[name] = values
  }
  result['Content-Security-Policy'] = own.includes(csp) ? own : [...own, csp]
  return result
}

/**
 * Permissions are all denied, with one exception: writing text to the clipboard from the emulator's
 * own page (its Copy buttons call navigator.clipboard.writeText, which Electron gates behind
 * `clipboard-sanitized-write`; the browser still requires a user gesture). Reading the clipboard,
 * notifications, media, geolocation and the rest: never.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export function isPermissionAllowed(permission: string, requestingUrl: string, appOrigin: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAllowedNavigation(requestingUrl, appOrigin)
}
