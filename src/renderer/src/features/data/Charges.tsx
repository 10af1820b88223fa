// An account's crypto charges in the Data view, with the buttons that simulate a payment or let a
// pending charge expire.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, type Account, type Charge } from '../../api.ts'
import { Empty, ErrorText, shortTime, usd } from '../../components/ui.tsx'
import { accountsKey } from '../../queries.ts'
import { chargesKey, useCharges } from './queries.ts'
import { errorMessage } from './shared.ts'

const CHAINS: Record<number, string> = { 1: 'Ethereum', 137: 'Polygon', 8453: 'Base' }
const CHARGE_BADGE: Record<Charge['status'], string> = { pending: 'warn', confirmed: 'ok', expired: 'bad' }

export function Charges({ account }: { account: Account }) {
  const client = useQueryClient()
  const charges = useCharges(account.id)
  const settle = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'confirm' | 'expire' }) => api.charges.settle(id, action),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: chargesKey(account.id) }), client.invalidateQueries({ queryKey: accountsKey })]),
  })
  return (
    <section className="panel" aria-labelledby="charges-title">
      <h3 id="charges-title" className="panel-title">
        Crypto charges of {account.name}
      </h3>
      <ErrorText error={charges.error} />
      {settle.error && (
        <p className="error" role="alert">
          Could not settle the charge: {errorMessage(settle.error)}
        </p>
      )}
      {charges.data?.length === 0 && (
        <Empty title="No charges">
          A client buys credits with <code className="inline">POST /api/v1/credits/crypto</code>; the charge waits here as pending until you simulate its
          payment.
        </Empty>
      )}
      {!!charges.data?.length && (
        <table>
          <thead>
            <tr>
              <th>Charge</th>
              <th className="num">Amount</th>
              <th>Chain</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Status</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {charges.data.map((c) => (
              <tr key={c.id}>
                <td className="mono">{c.id}</td>
                <td className="num">{usd(c.amount_usd)}</td>
                <td>{CHAINS[c.chain_id] ?? c.chain_id}</td>
                <td>{shortTime(c.created_at)}</td>
                <td>{shortTime(c.expires_at)}</td>
                <td>
                  <span className={`badge ${CHARGE_BADGE[c.status]}`}>{c.status}</span>
                  {c.confirmed_at && <div className="muted small">{shortTime(c.confirmed_at)}</div>}
                </td>
                <td>
                  {c.status === 'pending' && (
                    <div className="row nowrap">
                      <button
                        type="button"
                        className="small"
                        disabled={settle.isPending}
                        onClick={() => settle.mutate({ id: c.id, action: 'confirm' })}
                        aria-label={`Simulate payment of charge ${c.id}`}
                      >
                        Simulate payment
                      </button>
                      <button
                        type="button"
                        className="small secondary"
                        disabled={settle.isPending}
                        onClick={() => settle.mutate({ id: c.id, action: 'expire' })}
                        aria-label={`Expire charge ${c.id}`}
                      >
                        Expire
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
