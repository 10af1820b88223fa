// The inspector UI. It speaks to the emulator only over HTTP (the admin API of the page's own origin).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import './styles.css'

// Lists refresh on focus and every few seconds as a fallback to the live event stream.
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchInterval: 5000, staleTime: 1000, retry: 1 } } })

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
