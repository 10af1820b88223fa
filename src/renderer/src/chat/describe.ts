// Short descriptions of what a conversation carries that is too large to show: a URL or a data URI
// (an image, audio, a file) as its type and size. Pure (no DOM).

const KB = 1024
const size = (chars: number): string => (chars < KB ? `${chars} B` : `${Math.round(chars / KB)} KB`)

/** A short description of a URL or data URI, never the whole of a large one. */
export function describeUrl(url: string): string {
  if (url.startsWith('data:')) {
    const end = url.search(/[;,]/)
    const type = end === -1 ? '' : url.slice(5, end)
    return `${type || 'a'} data URI, ${size(url.length)}`
  }
  return url.length > 80 ? `${url.slice(0, 77)}…` : url
}
