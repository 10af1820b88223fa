// The inspector UI. It speaks to the emulator only over HTTP (the admin API of the page's own origin).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
// The global base first: each view's styles, imported by the view, come after it.
import './base.css'
import { App } from './App.tsx'

// No polling: the event stream (events.ts) invalidates exactly the queries a change touched. A view
// that mounts again reuses what it read unless that is older than the stale time.
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } })

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
