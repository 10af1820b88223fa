// The Faults view.
import { Empty } from '../../components/ui.tsx'

export function FaultsView() {
  return <Empty title="Faults">This view is being built.</Empty>
}
