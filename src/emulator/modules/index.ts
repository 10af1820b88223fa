// Every module of the emulator, in order. The context creates their services and registers their
// state in this order (a module may use the services of those before it when it is created, and
// export and import walk the state in this order); the app registers their routes in it. A new area
// is one folder with its `<area>.module.ts` and one line here (and its migration).
import { faultsModule } from '../faults/faults.module.ts'
import { journalModule } from '../journal/journal.module.ts'
import { storeModule } from '../store/store.module.ts'
import { accountsModule } from './accounts/accounts.module.ts'
import { activityModule } from './activity/activity.module.ts'
import { audioModule } from './audio/audio.module.ts'
import { callbacksModule } from './callbacks/callbacks.module.ts'
import { catalogModule } from './catalog/catalog.module.ts'
import { chatModule } from './chat/chat.module.ts'
import { textModule } from './text/text.module.ts'
import { clockModule } from './clock/clock.module.ts'
import { creditsModule } from './credits/credits.module.ts'
import { embeddingsModule } from './embeddings/embeddings.module.ts'
import { organizationModule } from './organization/organization.module.ts'
import { filesModule } from './files/files.module.ts'
import { generationsModule } from './generations/generations.module.ts'
import { presetsModule } from './presets/presets.module.ts'
import { byokModule } from './byok/byok.module.ts'
import { observabilityModule } from './observability/observability.module.ts'
import { oauthModule } from './oauth/oauth.module.ts'
import { analyticsModule } from './analytics/analytics.module.ts'
import { datasetsModule } from './datasets/datasets.module.ts'
import { responsesModule } from './responses/responses.module.ts'
import { stateModule } from './state/state.module.ts'
import { guardrailsModule } from './guardrails/guardrails.module.ts'
import { imagesModule } from './images/images.module.ts'
import { keysModule } from './keys/keys.module.ts'
import { ledgerModule } from './ledger/ledger.module.ts'
import { meterModule } from './meter/meter.module.ts'
import { messagesModule } from './messages/messages.module.ts'
import { metricsModule } from './metrics/metrics.module.ts'
import type { EmulatorModule } from './module.ts'
import { ratelimitModule } from './ratelimit/ratelimit.module.ts'
import { rerankModule } from './rerank/rerank.module.ts'
import { signupModule } from './signup/signup.module.ts'
import { recordingsModule } from './recordings/recordings.module.ts'
import { usageModule } from './usage/usage.module.ts'
import { videoModule } from './video-router/video-router.module.ts'
import { videosModule } from './videos/videos.module.ts'
import { workspacesModule } from './workspaces/workspaces.module.ts'

export const MODULES: readonly EmulatorModule[] = [
  storeModule,
  clockModule,
  accountsModule,
  keysModule,
  workspacesModule,
  signupModule,
  usageModule,
  textModule,
  chatModule,
  catalogModule,
  guardrailsModule,
  creditsModule,
  callbacksModule,
  faultsModule,
  ratelimitModule,
  videoModule,
  journalModule,
  ledgerModule,
  meterModule,
  embeddingsModule,
  organizationModule,
  filesModule,
  generationsModule,
  presetsModule,
  byokModule,
  observabilityModule,
  oauthModule,
  analyticsModule,
  datasetsModule,
  audioModule,
  imagesModule,
  videosModule,
  messagesModule,
  responsesModule,
  recordingsModule,
  rerankModule,
  activityModule,
  stateModule,
  metricsModule,
]
