// The Clock view.
import { Empty } from '../../components/ui.tsx'

export function ClockView() {
  return <Empty title="Clock">This view is being built.</Empty>
}
