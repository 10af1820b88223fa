// The Connect view.
import { Empty } from '../../components/ui.tsx'

export function ConnectView() {
  return <Empty title="Connect">This view is being built.</Empty>
}
