// The tray menu as plain data, built from the app's state by a pure function; index.ts turns each
// item's action into a click handler. No Electron here: tests run it in Node.

export type TrayAction = 'open-window' | 'copy-api-url' | 'reset' | 'quit'

export type TrayItem = { type: 'separator' } | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }

export type TrayState =
  | { status: 'starting' }
  | { status: 'failed'; error: string }
  | {
      status: 'running'
      /** Base URL of the emulator, e.g. http://127.0.0.1:8710. */
      url: string
      /** The port it wanted, when it had to take another one. */
      fellBackFrom?: number
      resetting?: boolean
    }

/** The gateway API's base, as an OpenAI-compatible client wants it. */
export const apiUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/api/v1`

const portOf = (url: string): string => new URL(url).port

function statusLines(state: TrayState): string[] {
  switch (state.status) {
    case 'starting':
      return ['Starting…']
    case 'failed':
      return [`Not running: ${state.error}`]
    case 'running':
      return [
        `Running on ${state.url}`,
        ...(state.fellBackFrom !== undefined ? [`Port ${state.fellBackFrom} was in use, so it runs on ${portOf(state.url)}`] : []),
      ]
  }
}

export function trayMenuTemplate(state: TrayState): TrayItem[] {
  const running = state.status === 'running'
  const resetting = running && state.resetting === true
  return [
    ...statusLines(state).map((label): TrayItem => ({ type: 'normal', label, enabled: false })),
    { type: 'separator' },
    { type: 'normal', label: 'Open window', enabled: running, action: 'open-window' },
    { type: 'normal', label: 'Copy API URL', enabled: running, action: 'copy-api-url' },
    { type: 'normal', label: resetting ? 'Resetting…' : 'Reset emulator', enabled: running && !resetting, action: 'reset' },
    { type: 'separator' },
    { type: 'normal', label: 'Quit', enabled: true, action: 'quit' },
  ]
}

/** The tray icon's hover text. */
export function trayTooltip(state: TrayState): string {
  return `Model Gateway Emulator — ${statusLines(state)[0]}`
}
