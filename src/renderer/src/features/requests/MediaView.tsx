// The files a request's answer carried (images, speech, video), as the journal keeps them whole
// (--journal-media-limit) and the admin API serves them: each image shown, audio and video played,
// each with a download link; raw PCM, which browsers cannot play, offered as a download; a file the
// journal dropped for newer ones said to be dropped, and why. Read by surfaces.ts (mediaItems).
import { useId, useMemo, useState } from 'react'
import type { JournalEntry } from '../../api.ts'
import { byteSize, mediaItems, type MediaItem } from './surfaces.ts'

const DROPPED =
  'The journal dropped this file to keep the files of all its entries within --journal-media-limit bytes (64 MiB unless set): the oldest go first, and a file larger than the limit is never kept. Start the emulator with a higher --journal-media-limit to keep more.'
const GONE = 'This file could not be loaded: the journal has probably dropped it since for newer ones (--journal-media-limit), or the entry was cleared.'

/** The short type for the download link: PNG, MP3, WAV. */
const typeName = (item: MediaItem): string => (item.filename.split('.').pop() ?? 'file').toUpperCase()

function Download({ item }: { item: MediaItem }) {
  if (!item.url) return null
  return (
    <a href={item.url} download={item.filename} className="media-download">
      Download {item.kind === 'file' ? 'file' : item.kind} {item.index + 1} ({typeName(item)}
      {item.bytes !== null ? `, ${byteSize(item.bytes)}` : ''})
    </a>
  )
}

/** The answer's own media type, when the answer is a file (speech, a video). */
const answerType = (entry: JournalEntry): string | null => {
  const type = Object.entries(entry.response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? null
  return type !== null && /^(audio|image|video)\//.test(type) ? type.split(';')[0]!.trim() : null
}

function MediaFile({ item, answeredAs }: { item: MediaItem; answeredAs: string | null }) {
  const [failed, setFailed] = useState(false)
  const captionId = useId()
  const caption = (
    <figcaption>
      <span id={captionId}>{item.description}</span>
      <span className="muted">
        {' '}
        · {item.contentType ?? 'type unknown'}
        {item.bytes !== null && ` · ${byteSize(item.bytes)}`}
      </span>{' '}
      <Download item={item} />
    </figcaption>
  )
  if (!item.url) {
    return (
      <figure className="media-item dropped" aria-labelledby={captionId}>
        <figcaption>
          <span id={captionId}>{item.description}</span> <span className="badge warn">dropped</span>
        </figcaption>
        <p className="muted small-print">{DROPPED}</p>
      </figure>
    )
  }
  return (
    <figure className="media-item" aria-labelledby={captionId}>
      {failed ? (
        <p className="transcript-warning" role="note">
          {GONE}
        </p>
      ) : !item.playable ? (
        <p className="muted small-print media-note">
          {item.contentType === 'audio/pcm'
            ? 'Raw PCM audio (16-bit little-endian samples, no header) cannot be played by a browser: download it and open it as raw data in an audio editor (mono, 24 kHz as the emulator makes it), or ask for mp3.'
            : 'A browser cannot show this file in place: download it.'}
        </p>
      ) : item.kind === 'image' ? (
        <img src={item.url} alt={item.description} onError={() => setFailed(true)} />
      ) : item.kind === 'audio' ? (
        <audio controls preload="metadata" src={item.url} aria-label={item.description} onError={() => setFailed(true)} />
      ) : (
        <video controls preload="metadata" src={item.url} aria-label={item.description} onError={() => setFailed(true)} />
      )}
      {caption}
      {answeredAs !== null && item.contentType !== null && answeredAs !== item.contentType && (
        <p className="muted small-print media-note">
          The answer was <code className="mono">{answeredAs}</code>; the journal keeps it as <code className="mono">{item.contentType}</code>
          {answeredAs === 'audio/pcm' && item.contentType === 'audio/wav' ? ' (the same samples with a WAV header)' : ''} so a browser can play it, and the
          download is that file.
        </p>
      )}
    </figure>
  )
}

export function MediaView({ entry }: { entry: JournalEntry }) {
  const items = useMemo(() => mediaItems(entry), [entry])
  const headingId = useId()
  if (items.length === 0) return null
  return (
    <section className="transcript media" aria-labelledby={headingId}>
      <h4 id={headingId}>Media</h4>
      <p className="muted small-print">
        {items.length === 1 ? 'The file' : `The ${items.length} files`} the answer carried, as the journal keeps {items.length === 1 ? 'it' : 'them'} whole
        (even where it cut the response body).
      </p>
      <div className="media-list">
        {items.map((item) => (
          <MediaFile key={item.index} item={item} answeredAs={answerType(entry)} />
        ))}
      </div>
    </section>
  )
}
