// The Activity view.
import { Empty } from '../../components/ui.tsx'

export function ActivityView() {
  return <Empty title="Activity">This view is being built.</Empty>
}
