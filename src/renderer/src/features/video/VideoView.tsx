// The Video view.
import { Empty } from '../../components/ui.tsx'

export function VideoView() {
  return <Empty title="Video">This view is being built.</Empty>
}
