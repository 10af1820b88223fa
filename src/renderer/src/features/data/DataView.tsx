// The Data view: the whole state's controls (StatePanel: seed presets, reset, export and import), the
// emulator's accounts and, for the selected one, its detail (AccountDetail: keys, guardrails,
// workspaces, BYOK credentials, presets, observability destinations and crypto charges).
import { Empty, ErrorText, usd } from '../../components/ui.tsx'
import { AccountDetail } from './AccountDetail.tsx'
import { selectOnKey, useSelectedAccount } from './shared.ts'
import { StatePanel } from './StatePanel.tsx'
import '../../styles/dvac.css'

export function DataView() {
  const { accounts, account, select, loading, error } = useSelectedAccount()
  return (
    <div className="dvac">
      <h2>Data</h2>
      <StatePanel />
      <section className="panel" aria-labelledby="accounts-title">
        <h3 id="accounts-title" className="panel-title">
          Accounts
        </h3>
        <ErrorText error={error} />
        {loading ? (
          <p className="muted">Loading…</p>
        ) : !accounts?.length ? (
          <Empty title="No accounts">
            The state is empty. Load the <em>default</em> or <em>demo</em> preset above, or create an account with{' '}
            <code className="inline">POST /_emulator/api/accounts</code>.
          </Empty>
        ) : (
          <table>
            <caption className="sr-only">Accounts; select one to see its keys, guardrails and charges</caption>
            <thead>
              <tr>
                <th>Name</th>
                <th>Id</th>
                <th className="num">Credits</th>
                <th className="num">Spent</th>
                <th className="num">Balance</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr
                  key={a.id}
                  className="clickable"
                  tabIndex={0}
                  aria-selected={a.id === account?.id}
                  onClick={() => select(a.id)}
                  onKeyDown={selectOnKey(() => select(a.id))}
                >
                  <td>{a.name}</td>
                  <td className="mono">{a.id}</td>
                  <td className="num">{usd(a.credits_usd)}</td>
                  <td className="num">{usd(a.spent_usd)}</td>
                  <td className={`num ${a.balance_usd <= 0 ? 'error' : ''}`}>{usd(a.balance_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {account && <AccountDetail account={account} />}
    </div>
  )
}
