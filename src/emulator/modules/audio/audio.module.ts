// Audio: speech made from text and transcriptions of audio, both deterministic and billed through the ledger.
import { defineModule } from '../module.ts'
import { audioRoutes } from './audio.routes.ts'

export const audioModule = defineModule({ name: 'audio', needs: ['catalog', 'ratelimit', 'ledger', 'chat', 'journal'], gateway: audioRoutes })
