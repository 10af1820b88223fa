// The store's own tables: facts about the state (its seed, the default account) and the id counters.
import { defineModule } from '../modules/module.ts'
import { storeState } from './sequences.ts'

export const storeModule = defineModule({ name: 'store', needs: ['keys', 'signup'], state: () => [storeState] })
