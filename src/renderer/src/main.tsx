// The inspector UI. It speaks to the emulator only over HTTP (the admin API of the page's own origin).
import { StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'

interface Health {
  status: string
  version: string
}

function App() {
  const [health, setHealth] = useState<Health | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    fetch('/_emulator/api/health')
      .then((res) => res.json() as Promise<Health>)
      .then(setHealth, (e: unknown) => setError(String(e)))
  }, [])
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Model Gateway Emulator</h1>
      {health && <p>Emulator {health.version} is {health.status}.</p>}
      {error && <p role="alert">Cannot reach the emulator: {error}</p>}
    </main>
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
