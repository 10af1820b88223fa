// The inspector's shell: a navigation of views (hash routes, so the page works from any path and in
// the desktop window), a live connection indicator, and the light/dark theme switch.
import { useEffect, useState, type ComponentType } from 'react'
import { useLiveEvents } from './events.ts'
import { ActivityView } from './features/activity/ActivityView.tsx'
import { ClockView } from './features/clock/ClockView.tsx'
import { ConnectView } from './features/connect/ConnectView.tsx'
import { DataView } from './features/data/DataView.tsx'
import { FaultsView } from './features/faults/FaultsView.tsx'
import { FixturesView } from './features/fixtures/FixturesView.tsx'
import { ModelsView } from './features/models/ModelsView.tsx'
import { PlaygroundView } from './features/playground/PlaygroundView.tsx'
import { RecordingsView } from './features/recordings/RecordingsView.tsx'
import { RequestsView } from './features/requests/RequestsView.tsx'
import { VideoView } from './features/video/VideoView.tsx'

const VIEWS: Array<{ id: string; label: string; component: ComponentType }> = [
  { id: 'requests', label: 'Requests', component: RequestsView },
  { id: 'playground', label: 'Playground', component: PlaygroundView },
  { id: 'faults', label: 'Faults', component: FaultsView },
  { id: 'fixtures', label: 'Fixtures', component: FixturesView },
  { id: 'recordings', label: 'Recordings', component: RecordingsView },
  { id: 'models', label: 'Models', component: ModelsView },
  { id: 'data', label: 'Data', component: DataView },
  { id: 'video', label: 'Video', component: VideoView },
  { id: 'activity', label: 'Activity', component: ActivityView },
  { id: 'clock', label: 'Clock', component: ClockView },
  { id: 'connect', label: 'Connect', component: ConnectView },
]

const current = (): string => window.location.hash.replace(/^#\/?/, '').split('/')[0] || 'requests'

function useTheme(): [string, () => void] {
  const [theme, setTheme] = useState(() => localStorage.getItem('theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'))
  useEffect(() => {
    document.documentElement.dataset.theme = theme
    localStorage.setItem('theme', theme)
  }, [theme])
  return [theme, () => setTheme((t) => (t === 'dark' ? 'light' : 'dark'))]
}

export function App() {
  const [view, setView] = useState(current)
  const [theme, toggleTheme] = useTheme()
  const live = useLiveEvents()
  useEffect(() => {
    const onHash = () => setView(current())
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const active = VIEWS.find((v) => v.id === view) ?? VIEWS[0]!
  const View = active.component
  return (
    <div className="shell">
      <header className="top">
        <h1>Model Gateway Emulator</h1>
        <span className={`live ${live ? 'on' : ''}`} title={live ? 'Live: updates arrive as they happen' : 'Not connected to the event stream'}>
          {live ? 'live' : 'offline'}
        </span>
        <button type="button" className="small" onClick={toggleTheme} aria-label="Switch between light and dark theme">
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
      </header>
      <nav aria-label="Views">
        {VIEWS.map((v) => (
          <a key={v.id} href={`#/${v.id}`} aria-current={v.id === active.id ? 'page' : undefined}>
            {v.label}
          </a>
        ))}
      </nav>
      <main aria-label={active.label}>
        <View />
      </main>
    </div>
  )
}
