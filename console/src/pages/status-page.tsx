import type { JSX } from 'preact';
import { basePath, serviceVersion } from '../base-path.js';
import { lastSequence } from '../api/last-sequence.js';
import { count } from '../format.js';
import { useCapabilities } from '../capabilities-context.js';
import { Show } from '../ui/feedback.js';
import { useLoad } from '../ui/use-load.js';

interface Readiness {
  readonly Status?: string;
  readonly Replica?: { Status: string; LagSeconds?: number; Streaming?: boolean };
  readonly ResponseStatus?: { Message?: string };
}

interface StatusData {
  readonly ready: Readiness & { ok: boolean };
  readonly backlogSeconds: number | undefined;
  readonly sequence: number | undefined;
}

const BACKLOG = /^ordergate_webhook_oldest_undelivered_event_age_seconds\s+([0-9.eE+-]+)\s*$/m;

/** Readiness, replica and backlog come from the public health and metrics routes; the feed needs the key. */
async function loadStatus(feed: boolean): Promise<StatusData> {
  const readyRes = await fetch(`${basePath}/health/ready`, { headers: { accept: 'application/json' } });
  const ready = { ...((await readyRes.json().catch(() => ({}))) as Readiness), ok: readyRes.ok };
  // /metrics may be bound to loopback or kept behind a proxy in production: then it is simply not shown.
  const metrics = await fetch(`${basePath}/metrics`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  const backlog = BACKLOG.exec(metrics);
  return { ready, backlogSeconds: backlog ? Number(backlog[1]) : undefined, sequence: feed ? await lastSequence() : undefined };
}

/** Status: readiness, replica lag, webhook backlog, the event feed's last Sequence, version. */
export function StatusPage(): JSX.Element {
  const caps = useCapabilities();
  const [loaded, reload] = useLoad(() => loadStatus(caps.all), [caps.all]);
  return (
    <>
      <div class="page-head">
        <h1>Status</h1>
        <button type="button" class="btn btn-secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      <Show loaded={loaded}>
        {(s) => (
          <dl class="facts">
            <dt>Readiness</dt>
            <dd>
              <span class={s.ready.ok ? 'badge badge-good' : 'badge badge-bad'}>
                {s.ready.ok ? (s.ready.Status ?? 'Ready') : 'Not ready'}
              </span>
              {!s.ready.ok && s.ready.ResponseStatus?.Message && <span> {s.ready.ResponseStatus.Message}</span>}
            </dd>
            <dt>Replica lag</dt>
            <dd>
              {s.ready.Replica
                ? s.ready.Replica.Status === 'Up'
                  ? `${count(s.ready.Replica.LagSeconds)} s`
                  : 'Replica down'
                : 'No read replica'}
            </dd>
            <dt>Webhook backlog</dt>
            <dd>
              {s.backlogSeconds === undefined
                ? 'Not available (/metrics not reachable)'
                : s.backlogSeconds === 0
                  ? 'Nothing waiting'
                  : `Oldest waiting event: ${count(Math.round(s.backlogSeconds))} s old`}
            </dd>
            <dt>Last event Sequence</dt>
            <dd>{s.sequence === undefined ? 'Needs the permission all' : count(s.sequence)}</dd>
            <dt>Version</dt>
            <dd>{serviceVersion || '—'}</dd>
          </dl>
        )}
      </Show>
    </>
  );
}
