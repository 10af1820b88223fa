// The Data view.
import { Empty } from '../../components/ui.tsx'

export function DataView() {
  return <Empty title="Data">This view is being built.</Empty>
}
