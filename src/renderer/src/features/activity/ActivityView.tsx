// The Activity view: an account's activity as a client reads GET /api/v1/activity, read here from the
// admin API (GET /accounts/:id/activity: no key, not journaled): its charts and table (ActivityCharts),
// or, with none, the ways to make some.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api.ts'
import { Empty, ErrorText, useConfirm } from '../../components/ui.tsx'
import { useClock } from '../../queries.ts'
import { useSelectedAccount } from '../data/shared.ts'
import { ActivityCharts, DAYS } from './ActivityCharts.tsx'
import { useActivity } from './queries.ts'
import '../../styles/dvac.css'
import './activity.css'

export function ActivityView() {
  const { accounts, account, select, loading, error } = useSelectedAccount()
  const clock = useClock()
  const activity = useActivity(account?.id)

  return (
    <div className="dvac">
      <div className="row heading">
        <h2 className="grow">Activity</h2>
        {accounts && accounts.length > 0 && (
          <label>
            Account
            <select value={account?.id ?? ''} onChange={(e) => select(e.target.value)}>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ErrorText error={error ?? activity.error} />
      {loading || (account && clock.isPending) ? (
        <p className="muted">Loading…</p>
      ) : !account ? (
        <Empty title="No accounts">
          The state is empty: load the demo preset below, or the default one in the <a href="#/data">Data</a> view.
          <NoActivityActions />
        </Empty>
      ) : activity.isPending ? (
        <p className="muted">Loading…</p>
      ) : activity.data && activity.data.length > 0 && clock.data ? (
        <ActivityCharts rows={activity.data} now={clock.data.now} />
      ) : (
        <Empty title={`No activity for ${account.name} in the last ${DAYS} completed days`}>
          <p>
            Activity covers completed UTC days only, so calls made today appear after midnight on the emulator's clock
            {clock.data ? ` (now ${clock.data.now.slice(0, 16).replace('T', ' ')} UTC)` : ''}. Load 30 days of demo usage, or move the clock one day ahead to
            see today's calls.
          </p>
          <NoActivityActions />
        </Empty>
      )}
    </div>
  )
}

function NoActivityActions() {
  const client = useQueryClient()
  const confirm = useConfirm()
  const action = useMutation({
    mutationFn: (what: 'demo' | 'day') => (what === 'demo' ? api.state.seed('demo') : api.clock.advance({ by: '1d' })),
    onSettled: () => client.invalidateQueries(),
  })
  return (
    <>
      <div className="row center">
        <button
          type="button"
          disabled={action.isPending}
          onClick={() =>
            confirm.ask({
              title: 'Load demo data?',
              message: 'The demo preset replaces the whole state with the default account and 30 days of usage.',
              confirm: 'Load demo data',
              onConfirm: () => action.mutate('demo'),
            })
          }
        >
          Load demo data
        </button>
        <button type="button" className="secondary" disabled={action.isPending} onClick={() => action.mutate('day')}>
          Advance one day
        </button>
      </div>
      <ErrorText error={action.error} />
      {confirm.dialog}
    </>
  )
}
