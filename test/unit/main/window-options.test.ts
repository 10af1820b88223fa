// The inspector window's hardening: preferences, where it may go, what opens outside, its CSP.
import { describe, expect, it } from 'vitest'
import {
  isAllowedNavigation,
  isExternalLink,
  isPermissionAllowed,
  WEB_PREFERENCES,
  WINDOW_CSP,
  windowOptions,
  withCsp,
} from '../../../src/main/window-options.ts'

const APP = 'http://127.0.0.1:8710'

describe('window options', () => {
  it('isolates the page from Node and Electron', () => {
    const options = windowOptions()
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
    })
    expect(options.webPreferences).not.toHaveProperty('preload')
    expect(options.title).toBe('Model Gateway Emulator')
    expect(options.width).toBeGreaterThanOrEqual(1024)
    // Each call gets its own copy: nobody can weaken the shared preferences by editing one window's.
    expect(options.webPreferences).not.toBe(WEB_PREFERENCES)
  })
})

describe('navigation', () => {
  it('allows only the emulator’s own origin', () => {
    expect(isAllowedNavigation(`${APP}/_emulator/`, APP)).toBe(true)
    expect(isAllowedNavigation(`${APP}/_emulator/docs/`, `${APP}/_emulator/`)).toBe(true)
    expect(isAllowedNavigation('http://127.0.0.1:8711/_emulator/', APP)).toBe(false) // another port
    expect(isAllowedNavigation('http://localhost:8710/_emulator/', APP)).toBe(false) // another host name
    expect(isAllowedNavigation('https://127.0.0.1:8710/', APP)).toBe(false) // another scheme
    expect(isAllowedNavigation('https://example.com/', APP)).toBe(false)
    expect(isAllowedNavigation('file:///etc/passwd', APP)).toBe(false)
    expect(isAllowedNavigation('javascript:alert(1)', APP)).toBe(false)
    expect(isAllowedNavigation('not a url', APP)).toBe(false)
    expect(isAllowedNavigation('file:///a', 'file:///a')).toBe(false) // an opaque origin is nobody's
  })

  it('sends http(s) links to other sites to the system browser, and nothing else', () => {
    expect(isExternalLink('https://openrouter.ai/docs')).toBe(true)
    expect(isExternalLink('http://example.com/', APP)).toBe(true)
    expect(isExternalLink(`${APP}/_emulator/docs/`, APP)).toBe(false)
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'mailto:a@b.c', 'smb://host/share', 'vscode://x', '']) {
      expect(isExternalLink(url, APP), url).toBe(false)
    }
  })
})

describe('permissions', () => {
  it('denies everything but a clipboard write from the emulator’s page', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', `${APP}/_emulator/keys`, APP)).toBe(true)
    expect(isPermissionAllowed('clipboard-sanitized-write', APP, APP)).toBe(true) // a check gets the origin only
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com/', APP)).toBe(false)
    for (const permission of ['clipboard-read', 'notifications', 'media', 'geolocation', 'openExternal', 'fullscreen', 'unknown']) {
      expect(isPermissionAllowed(permission, `${APP}/_emulator/`, APP), permission).toBe(false)
    }
  })
})

describe('content security policy', () => {
  it('is the window’s strict policy', () => {
    expect(WINDOW_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    )
  })

  it('is added to response headers, next to any policy the server sent', () => {
    expect(withCsp(undefined)).toEqual({ 'Content-Security-Policy': [WINDOW_CSP] })
    const headers = withCsp({ 'content-type': ['text/html'], 'content-security-policy': ["default-src 'self'"] })
    expect(headers).toEqual({ 'content-type': ['text/html'], 'Content-Security-Policy': ["default-src 'self'", WINDOW_CSP] })
    expect(withCsp(headers)).toEqual(headers) // not added twice
  })
})
