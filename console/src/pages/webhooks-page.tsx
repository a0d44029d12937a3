import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, del, get, post, put } from '../api/client.js';
import { when } from '../format.js';
import type { PageProps } from '../pages.js';
import { Link } from '../router.js';
import { CopyButton } from '../ui/copy-button.js';
import { Done, ErrorNote, Show } from '../ui/feedback.js';
import { Busy, Field, formValues } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';

interface Endpoint {
  readonly Id: string;
  readonly Url: string;
  readonly Events: readonly string[];
  readonly Description: string;
  readonly Enabled: boolean;
  readonly DisabledReason: string | null;
  readonly Secret?: string;
}

interface Delivery {
  readonly EventId: string;
  readonly Attempt: number;
  readonly Status: string;
  readonly ResponseCode: number | null;
  readonly DurationMs: number | null;
  readonly At: string | null;
  readonly NextAttemptAt: string | null;
  readonly Error?: string | null;
}

const list = (text: string | undefined): string[] => (text ?? '').split(/[\s,]+/).filter(Boolean);

/** The signing secret, shown once (after creation or rotation), with a copy button. */
const Secret = ({ secret }: { secret: string }): JSX.Element => (
  <div class="card" role="status">
    <p>The signing secret, shown only now:</p>
    <p class="secret" aria-label="Signing secret">
      {secret}
    </p>
    <CopyButton text={secret} />
  </div>
);

/** Webhooks: endpoints created, listed; each one's page has its actions and deliveries. */
export function WebhooksPage(): JSX.Element {
  const [loaded, reload] = useLoad(() => get<Endpoint[]>('/webhooks'), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [secret, setSecret] = useState('');
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const v = formValues(form);
    setBusy(true);
    setError(undefined);
    try {
      const created = await post<Endpoint>('/webhooks', { Url: v.Url ?? '', Events: list(v.Events), Description: v.Description ?? '' });
      setSecret(created.Secret ?? '');
      form.reset();
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div class="page-head">
        <h1>Webhooks</h1>
      </div>
      <form class="card" aria-label="Create endpoint" onSubmit={(e) => void create(e)} noValidate>
        <ErrorNote error={error} shownFields={['Url', 'Events', 'Description']} />
        <div class="grid">
          <Field label="URL" field="Url" error={error}>
            {(p) => <input {...p} type="url" />}
          </Field>
          <Field label="Event types" field="Events" error={error} hint="Comma-separated; empty: every type">
            {(p) => <input {...p} />}
          </Field>
          <Field label="Description" field="Description" error={error}>
            {(p) => <input {...p} />}
          </Field>
        </div>
        <Busy busy={busy} label="Create endpoint" />
      </form>
      {secret && <Secret secret={secret} />}
      <h2>Endpoints</h2>
      <Show loaded={loaded}>
        {(endpoints) => (
          <table>
            <caption>Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((w) => (
                <tr key={w.Id}>
                  <td>
                    <Link to={`/webhooks/${encodeURIComponent(w.Id)}`}>{w.Url}</Link>
                  </td>
                  <td>{w.Events.length === 0 ? 'every type' : w.Events.join(', ')}</td>
                  <td>{w.Description}</td>
                  <td>
                    {w.Enabled ? (
                      <span class="badge badge-good">Enabled</span>
                    ) : (
                      <span class="badge badge-bad">Disabled{w.DisabledReason ? `: ${w.DisabledReason}` : ''}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}

/** What the one attempt of a test event came to, in a sentence. */
function testOutcome(d: Delivery): string {
  const code = d.ResponseCode === null ? '' : `, response ${d.ResponseCode}`;
  return d.Status === 'Delivered' ? `Test event delivered${code}.` : `Test event not delivered${code}: ${d.Error ?? d.Status}.`;
}

/** One endpoint: change, disable or enable, Send test event, Rotate secret, delete; its deliveries with Replay. */
export function WebhookPage({ route }: PageProps): JSX.Element {
  const id = decodeURIComponent(route.path.slice('/webhooks/'.length));
  const path = `/webhooks/${encodeURIComponent(id)}`;
  const [loaded, reload] = useLoad(() => get<Endpoint>(path), [id]);
  const [deliveries, reloadDeliveries] = useLoad(() => get<Delivery[]>(`${path}/deliveries`, { Take: 100 }), [id]);
  const [busy, setBusy] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [secret, setSecret] = useState('');
  const [note, setNote] = useState('');
  const act = async (name: string, action: () => Promise<void>): Promise<void> => {
    setBusy(name);
    setError(undefined);
    setNote('');
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  };
  const save = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    void act('save', async () => {
      await put(path, { Url: v.Url ?? '', Events: list(v.Events), Description: v.Description ?? '' });
      setNote('Endpoint saved.');
      reload();
    });
  };
  return (
    <Show loaded={loaded}>
      {(w) => (
        <>
          <div class="page-head">
            <h1>Webhook {w.Url}</h1>
            <div class="actions">
              <Busy
                type="button"
                kind="secondary"
                busy={busy === 'enable'}
                label={w.Enabled ? 'Disable' : 'Enable'}
                onClick={() => void act('enable', async () => (await put(path, { Enabled: !w.Enabled }), reload()))}
              />
              <Busy
                type="button"
                kind="secondary"
                busy={busy === 'test'}
                label="Send test event"
                onClick={() =>
                  void act('test', async () => {
                    setNote(testOutcome(await post<Delivery>(`${path}/test`)));
                    reloadDeliveries();
                  })
                }
              />
              <Busy
                type="button"
                kind="secondary"
                busy={busy === 'rotate'}
                label="Rotate secret"
                onClick={() => void act('rotate', async () => setSecret((await post<Endpoint>(`${path}/rotate-secret`)).Secret ?? ''))}
              />
              <Busy
                type="button"
                kind="danger"
                busy={busy === 'delete'}
                label="Delete endpoint"
                onClick={() => void act('delete', async () => (await del(path), history.back()))}
              />
            </div>
          </div>
          <ErrorNote error={error} shownFields={['Url', 'Events', 'Description']} />
          {secret && <Secret secret={secret} />}
          {note && <Done>{note}</Done>}
          <form class="card" aria-label="Change endpoint" onSubmit={save} noValidate key={`${w.Url}|${w.Events.join()}|${w.Description}`}>
            <div class="grid">
              <Field label="URL" field="Url" error={error}>
                {(p) => <input {...p} type="url" defaultValue={w.Url} />}
              </Field>
              <Field label="Event types" field="Events" error={error} hint="Comma-separated; empty: every type">
                {(p) => <input {...p} defaultValue={w.Events.join(', ')} />}
              </Field>
              <Field label="Description" field="Description" error={error}>
                {(p) => <input {...p} defaultValue={w.Description} />}
              </Field>
            </div>
            <Busy busy={busy === 'save'} label="Save endpoint" />
          </form>
          <h2>Deliveries</h2>
          <Show loaded={deliveries}>
            {(items) =>
              items.length === 0 ? (
                <p class="muted">No deliveries yet.</p>
              ) : (
                <table>
                  <caption>Deliveries, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col" class="num">
                        Attempt
                      </th>
                      <th scope="col">Status</th>
                      <th scope="col" class="num">
                        Response code
                      </th>
                      <th scope="col">Reason</th>
                      <th scope="col">At</th>
                      <th scope="col">Next attempt</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((d) => (
                      <tr key={`${d.EventId}-${d.Attempt}`}>
                        <td class="mono">{d.EventId}</td>
                        <td class="num">{d.Attempt}</td>
                        <td>{d.Status}</td>
                        <td class="num">{d.ResponseCode ?? '—'}</td>
                        <td>{d.Error ?? '—'}</td>
                        <td>{when(d.At)}</td>
                        <td>{when(d.NextAttemptAt)}</td>
                        <td>
                          <Busy
                            type="button"
                            kind="secondary"
                            busy={busy === `replay-${d.EventId}-${d.Attempt}`}
                            label="Replay"
                            onClick={() =>
                              void act(`replay-${d.EventId}-${d.Attempt}`, async () => {
                                const r = (await call<{ Queued: number }>('POST', `${path}/replay`, { body: { EventIds: [d.EventId] } }))
                                  .body;
                                setNote(`Replay queued: ${r.Queued} delivery.`);
                                reloadDeliveries();
                              })
                            }
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )
            }
          </Show>
        </>
      )}
    </Show>
  );
}
