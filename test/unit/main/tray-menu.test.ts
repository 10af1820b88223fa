// The tray menu as data: what it says and which items do what, in each state of the app.
import { describe, expect, it } from 'vitest'
import { apiUrl, trayMenuTemplate, trayTooltip, type TrayItem } from '../../../src/main/tray-menu.ts'

const labels = (items: TrayItem[]) => items.map((item) => (item.type === 'separator' ? '---' : item.label))
const item = (items: TrayItem[], label: string) => items.find((i) => i.type === 'normal' && i.label === label)

describe('tray menu', () => {
  it('shows where the emulator runs and offers every action', () => {
    const menu = trayMenuTemplate({ status: 'running', url: 'http://127.0.0.1:8710' })
    expect(menu).toEqual([
      { type: 'normal', label: 'Running on http://127.0.0.1:8710', enabled: false },
      { type: 'separator' },
      { type: 'normal', label: 'Open window', enabled: true, action: 'open-window' },
      { type: 'normal', label: 'Copy API URL', enabled: true, action: 'copy-api-url' },
      { type: 'normal', label: 'Reset emulator', enabled: true, action: 'reset' },
      { type: 'separator' },
      { type: 'normal', label: 'Quit', enabled: true, action: 'quit' },
    ])
  })

  it('says so when the preferred port was taken', () => {
    const menu = trayMenuTemplate({ status: 'running', url: 'http://127.0.0.1:8712', fellBackFrom: 8710 })
    expect(labels(menu).slice(0, 3)).toEqual(['Running on http://127.0.0.1:8712', 'Port 8710 was in use, so it runs on 8712', '---'])
    expect(menu.slice(0, 2).every((i) => i.type === 'normal' && !i.enabled && i.action === undefined)).toBe(true)
  })

  it('offers only Quit while starting or after a failed start', () => {
    for (const state of [{ status: 'starting' } as const, { status: 'failed', error: 'database is locked' } as const]) {
      const menu = trayMenuTemplate(state)
      const enabled = menu.filter((i) => i.type === 'normal' && i.enabled).map((i) => (i.type === 'normal' ? i.action : null))
      expect(enabled).toEqual(['quit'])
    }
    expect(labels(trayMenuTemplate({ status: 'starting' }))[0]).toBe('Starting…')
    expect(labels(trayMenuTemplate({ status: 'failed', error: 'database is locked' }))[0]).toBe('Not running: database is locked')
  })

  it('disables Reset while a reset runs', () => {
    const menu = trayMenuTemplate({ status: 'running', url: 'http://127.0.0.1:8710', resetting: true })
    expect(item(menu, 'Resetting…')).toEqual({ type: 'normal', label: 'Resetting…', enabled: false, action: 'reset' })
    expect(item(menu, 'Open window')).toMatchObject({ enabled: true })
  })

  it('has a tooltip and the API URL clients want', () => {
    expect(trayTooltip({ status: 'running', url: 'http://127.0.0.1:8710' })).toBe('Model Gateway Emulator — Running on http://127.0.0.1:8710')
    expect(apiUrl('http://127.0.0.1:8710')).toBe('http://127.0.0.1:8710/api/v1')
    expect(apiUrl('http://127.0.0.1:8710/')).toBe('http://127.0.0.1:8710/api/v1')
  })
})
