// The selected account's workspaces, BYOK credentials, presets and observability destinations, read
// from the admin API. A client changes them through the gateway; the journal entry of that change
// refreshes the section (events.ts, management.ts). No secret is ever shown: a credential is its masked
// label, a destination its type, name, state and the host it sends to.
import type { Account } from '../../api.ts'
import { Empty, ErrorText, usd } from '../../components/ui.tsx'
import { budgetsText, destinationHost, memberCountText, presetVersionText, workspaceName } from './management.ts'
import { useManagementList } from './queries.ts'

const none = <span className="muted">none</span>

export function ManagementSections({ account }: { account: Account }) {
  const workspaces = useManagementList('workspaces', account.id)
  const byok = useManagementList('byok', account.id)
  const presets = useManagementList('presets', account.id)
  const destinations = useManagementList('observability', account.id)
  const inWorkspace = (id: string | null) => workspaceName(workspaces.data, id)
  return (
    <>
      <section className="panel" aria-labelledby="workspaces-title">
        <h3 id="workspaces-title" className="panel-title">
          Workspaces of {account.name}
        </h3>
        <ErrorText error={workspaces.error} />
        {workspaces.data?.length === 0 && (
          <Empty title="No workspaces">
            Create one with <code className="inline">POST /api/v1/workspaces</code> and the management key.
          </Empty>
        )}
        {!!workspaces.data?.length && (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Slug</th>
                <th>Budgets</th>
                <th className="num">Members</th>
              </tr>
            </thead>
            <tbody>
              {workspaces.data.map((w) => (
                <tr key={w.id}>
                  <td>
                    <div>{w.name}</div>
                    {w.id === account.workspace_id && <span className="badge ok">default</span>}
                  </td>
                  <td className="mono">{w.slug}</td>
                  <td>
                    {budgetsText(w.budgets, usd) ?? none}
                    {w.include_byok_in_budgets && <div className="muted small">BYOK spend counts</div>}
                  </td>
                  <td className="num">{memberCountText(w.member_count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="byok-title">
        <h3 id="byok-title" className="panel-title">
          BYOK credentials of {account.name}
        </h3>
        <ErrorText error={byok.error} />
        {byok.data?.length === 0 && (
          <Empty title="No BYOK credentials">
            Add a provider key with <code className="inline">POST /api/v1/byok</code> and the management key; only its masked label is kept.
          </Empty>
        )}
        {!!byok.data?.length && (
          <table>
            <thead>
              <tr>
                <th>Provider</th>
                <th>Name</th>
                <th>Key</th>
                <th>Workspace</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {byok.data.map((k) => (
                <tr key={k.id} className={k.disabled ? 'dim' : undefined}>
                  <td>{k.provider}</td>
                  <td>{k.name ?? none}</td>
                  <td className="mono">{k.label}</td>
                  <td>{inWorkspace(k.workspace_id)}</td>
                  <td>
                    {k.disabled ? <span className="badge bad">disabled</span> : <span className="badge ok">enabled</span>}
                    {k.is_fallback && <div className="muted small">fallback</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="presets-title">
        <h3 id="presets-title" className="panel-title">
          Presets of {account.name}
        </h3>
        <ErrorText error={presets.error} />
        {presets.data?.length === 0 && (
          <Empty title="No presets">
            Create one from a request body with <code className="inline">POST /api/v1/presets/&#123;slug&#125;/chat/completions</code> and the management key.
          </Empty>
        )}
        {!!presets.data?.length && (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Slug</th>
                <th>Version</th>
                <th>Workspace</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {presets.data.map((p) => (
                <tr key={p.id} className={p.status === 'active' ? undefined : 'dim'}>
                  <td>{p.name}</td>
                  <td className="mono">@preset/{p.slug}</td>
                  <td>{presetVersionText(p) ?? none}</td>
                  <td>{inWorkspace(p.workspace_id)}</td>
                  <td>
                    <span className={`badge ${p.status === 'active' ? 'ok' : 'warn'}`}>{p.status}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="destinations-title">
        <h3 id="destinations-title" className="panel-title">
          Observability destinations of {account.name}
        </h3>
        <ErrorText error={destinations.error} />
        {destinations.data?.length === 0 && (
          <Empty title="No observability destinations">
            Add one with <code className="inline">POST /api/v1/observability/destinations</code> and the management key to receive traces.
          </Empty>
        )}
        {!!destinations.data?.length && (
          <table>
            <thead>
              <tr>
                <th>Type</th>
                <th>Name</th>
                <th>Sends to</th>
                <th>Workspace</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {destinations.data.map((d) => (
                <tr key={d.id} className={d.enabled ? undefined : 'dim'}>
                  <td>{d.type}</td>
                  <td>{d.name ?? none}</td>
                  <td className="mono">{destinationHost(d) ?? <span className="muted">the vendor&apos;s default</span>}</td>
                  <td>{inWorkspace(d.workspace_id)}</td>
                  <td>{d.enabled ? <span className="badge ok">enabled</span> : <span className="badge bad">disabled</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  )
}
