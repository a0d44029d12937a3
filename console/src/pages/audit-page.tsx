import type { JSX } from 'preact';
// The service's own list of actions: one added there is offered here too.
import { AUDIT_ACTIONS } from '../../../src/audit/audit.actions.js';
import { get } from '../api/client.js';
import { lastSequence } from '../api/last-sequence.js';
import { when } from '../format.js';
import type { PageProps } from '../pages.js';
import { navigate } from '../router.js';
import { Show } from '../ui/feedback.js';
import { Field } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';

const WINDOW = 200;

interface AuditEntry {
  readonly Sequence: number;
  readonly At: string;
  readonly KeyId: string;
  readonly Action: string;
  readonly ResourceType: string;
  readonly ResourceIds: readonly string[];
}

/**
 * A window of WINDOW entries ending at `before` (the newest when absent), newest first. The log
 * reads forward from a Sequence, so the window is read as `After = end − WINDOW`.
 */
async function loadWindow(before: number | undefined): Promise<{ entries: AuditEntry[]; end: number; start: number }> {
  const end = before ?? (await lastSequence('/audit/'));
  const start = Math.max(0, end - WINDOW);
  const entries = end === 0 ? [] : await get<AuditEntry[]>('/audit/', { After: start, Take: end - start });
  return { entries: entries.filter((e) => e.Sequence <= end).reverse(), end, start };
}

/** Audit log: entries newest first, filtered by action, a window at a time. */
export function AuditPage({ route }: PageProps): JSX.Element {
  const action = route.query.get('Action') ?? '';
  const before = route.query.get('Before');
  const [loaded] = useLoad(() => loadWindow(before ? Number(before) : undefined), [before]);
  const go = (a: string, b?: number): void => {
    const params = new URLSearchParams();
    if (a) params.set('Action', a);
    if (b !== undefined) params.set('Before', String(b));
    const s = params.toString();
    navigate(`/audit${s ? `?${s}` : ''}`, b === undefined);
  };
  return (
    <>
      <div class="page-head">
        <h1>Audit log</h1>
      </div>
      <form class="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <Field label="Action">
          {(p) => (
            <select
              {...p}
              value={action}
              onChange={(e) => go((e.currentTarget as HTMLSelectElement).value, before ? Number(before) : undefined)}
            >
              <option value="">Every action</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          )}
        </Field>
      </form>
      <Show loaded={loaded}>
        {({ entries, start }) => {
          const shown = action ? entries.filter((e) => e.Action === action) : entries;
          return (
            <>
              <table>
                <caption>Audit entries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      Sequence
                    </th>
                    <th scope="col">At</th>
                    <th scope="col">Key</th>
                    <th scope="col">Action</th>
                    <th scope="col">Resource</th>
                    <th scope="col">Ids</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((e) => (
                    <tr key={e.Sequence}>
                      <td class="num">{e.Sequence}</td>
                      <td>{when(e.At)}</td>
                      <td class="mono">{e.KeyId}</td>
                      <td>{e.Action}</td>
                      <td>{e.ResourceType}</td>
                      <td>{e.ResourceIds.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <nav class="pager" aria-label="Pages">
                <button type="button" class="btn btn-secondary" disabled={!before} onClick={() => go(action)}>
                  Newest
                </button>
                <button type="button" class="btn btn-secondary" disabled={start === 0} onClick={() => go(action, start)}>
                  Older entries
                </button>
                <span class="muted">{shown.length === 0 ? 'No entries here' : `${shown.length} shown`}</span>
              </nav>
            </>
          );
        }}
      </Show>
    </>
  );
}
