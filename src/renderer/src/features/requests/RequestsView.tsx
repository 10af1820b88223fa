// The Requests view.
import { Empty } from '../../components/ui.tsx'

export function RequestsView() {
  return <Empty title="Requests">This view is being built.</Empty>
}
