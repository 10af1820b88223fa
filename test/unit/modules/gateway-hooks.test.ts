// The gateway's hooks are declared by their modules (`hooks`) and installed by stage and order: this
// pins the order a request meets them, which the journal, faults, presets and replay rely on.
import { describe, expect, it } from 'vitest'
import { gatewayHooks } from '../../../src/emulator/http/gateway-hooks.ts'
import { MODULES } from '../../../src/emulator/modules/index.ts'
import { defineModule } from '../../../src/emulator/modules/module.ts'

describe('the gateway hooks', () => {
  it('are installed in the order a request meets them: the journal, authentication, presets, faults, replay', () => {
    expect(gatewayHooks(MODULES).map(({ owner, hook }) => `${hook.stage} ${hook.order} ${owner}`)).toEqual([
      'onRequest 10 journal',
      'onRequest 20 auth',
      'preValidation 10 presets',
      'preValidation 20 faults',
      'preHandler 10 recordings',
    ])
  })

  it('refuses two hooks in the same place, since their order would then be the list order by accident', () => {
    const twin = defineModule({ name: 'twin', hooks: [{ stage: 'preValidation', order: 10, install: () => {} }] })
    expect(() => gatewayHooks([...MODULES, twin])).toThrow('gateway hooks of presets and twin both at preValidation 10')
  })
})
