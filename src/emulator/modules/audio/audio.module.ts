// Audio: speech made from text and transcriptions of audio, both deterministic and billed through the meter.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_JSON_AUDIO_BYTES, MAX_SPEECH_CHARS, MAX_SPEECH_SECONDS, MAX_UPLOAD_BYTES } from './audio.schemas.ts'
import { MAX_AUDIO_SECONDS } from '../../media/audio-probe.ts'
import { audioRoutes } from './audio.routes.ts'

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Characters of the text to speak', value: MAX_SPEECH_CHARS, unit: 'characters', beyond: '400 naming `input`' },
  { what: 'Seconds of speech one request makes (a long text at a low speed)', value: MAX_SPEECH_SECONDS, unit: 'seconds', beyond: '400 naming `input`' },
  {
    what: "Bytes of an uploaded audio file (a form's `file`)",
    value: MAX_UPLOAD_BYTES,
    unit: 'bytes',
    beyond: "413 naming `file`, pointing to JSON for larger audio; at once when the form's declared length says so",
  },
  {
    what: 'Bytes of base64 audio in JSON (`input_audio.data`, decoded)',
    value: MAX_JSON_AUDIO_BYTES,
    unit: 'bytes',
    beyond: '400 naming `input_audio.data`, as it arrives',
  },
  {
    what: 'Seconds of audio one transcription reads (a header may claim any length)',
    value: MAX_AUDIO_SECONDS,
    unit: 'seconds',
    beyond: '400 naming the audio field',
  },
]

export const audioModule = defineModule({ name: 'audio', limits: LIMITS, needs: ['catalog', 'meter', 'journal'], gateway: audioRoutes })
