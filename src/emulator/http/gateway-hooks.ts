// The gateway's hooks in the order they are installed: those the modules declare (`hooks` in their
// definitions, modules/module.ts) and the kernel's own, authentication, sorted by stage and then by
// order. build-app.ts installs them on the gateway scope; docs/architecture.md lists them.
import { GATEWAY_STAGES, type EmulatorModule, type GatewayHook } from '../modules/module.ts'
import { installAuth } from './auth.ts'

/**
 * Authentication, the kernel's hook: after the journal's (onRequest, order 10), so a request it refuses
 * is recorded too, and before every hook that reads the caller (presets, faults, replay).
 */
const AUTHENTICATION: GatewayHook = { stage: 'onRequest', order: 20, install: installAuth }

/** A gateway hook and who declared it (a module's name, or `auth` for the kernel's). */
export interface InstalledHook {
  readonly owner: string
  readonly hook: GatewayHook
}

/** Every gateway hook, in the order they are installed; two in the same place are refused. */
export function gatewayHooks(modules: readonly EmulatorModule[]): InstalledHook[] {
  const hooks: InstalledHook[] = [
    { owner: 'auth', hook: AUTHENTICATION },
    ...modules.flatMap((module) => (module.hooks ?? []).map((hook) => ({ owner: module.name, hook }))),
  ]
  const place = ({ hook }: InstalledHook): number => GATEWAY_STAGES.indexOf(hook.stage) * 1_000_000 + hook.order
  hooks.sort((a, b) => place(a) - place(b))
  for (let i = 1; i < hooks.length; i++)
    if (place(hooks[i]!) === place(hooks[i - 1]!))
      throw new Error(`gateway hooks of ${hooks[i - 1]!.owner} and ${hooks[i]!.owner} both at ${hooks[i]!.hook.stage} ${hooks[i]!.hook.order}`)
  return hooks
}
