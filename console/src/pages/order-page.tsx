import type { ComponentChildren, JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { get, post } from '../api/client.js';
import type { MoneyRecord, Order } from '../api/types.js';
import type { Capabilities } from '../api/capabilities.js';
import { useCapabilities } from '../capabilities-context.js';
import { count, day, money, when } from '../format.js';
import type { PageProps } from '../pages.js';
import { Done, ErrorNote, Show } from '../ui/feedback.js';
import { Busy } from '../ui/form.js';
import { OrderCustomer, StatusBadge } from '../ui/order-table.js';
import { groupsOf, valueAt, type ValueKind } from '../ui/field-labels.js';
import { useLoad } from '../ui/use-load.js';
import { AddShipment, EditOrder, RecordPayment, RecordRefund, RecordReturn, type ActionName } from './order-actions.js';

const text = (v: unknown): string =>
  v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** An ISO 8601 moment, as the API writes every date (a field the labels do not know may hold one). */
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value as a person reads it: dates in the browser's locale, amounts in the order's currency. */
function shown(v: unknown, kind: ValueKind | undefined, currency: string | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  if (kind === 'money' && (typeof v === 'number' || (typeof v === 'string' && Number.isFinite(Number(v)))))
    return money(Number(v), currency);
  if (typeof v === 'string' && (kind === 'day' || ISO_MOMENT.test(v))) return kind === 'day' ? day(v) : when(v);
  return text(v);
}

/** The confirmation's fields under human labels, a definition list per group (Customer, Delivery address, …). */
function ConfirmationFacts({ values, currency }: { values: Record<string, unknown>; currency: string | undefined }): JSX.Element {
  return (
    <div class="fact-groups">
      {groupsOf(values).map((g) => (
        <div key={g.heading} class="fact-group">
          <h3>{g.heading}</h3>
          <dl class="facts" aria-label={g.heading}>
            {g.fields.map((f) => [
              <dt key={`t-${f.name}`}>{f.label}</dt>,
              <dd key={`d-${f.name}`}>{shown(valueAt(values, f.name), f.kind, currency)}</dd>,
            ])}
          </dl>
        </div>
      ))}
    </div>
  );
}

const Empty = ({ children }: { children: ComponentChildren }): JSX.Element => <p class="muted">{children}</p>;

function Lines({ order }: { order: Order }): JSX.Element {
  const lines = order.Lines ?? [];
  if (lines.length === 0) return <Empty>No lines.</Empty>;
  const c = order.Currency;
  return (
    <table>
      <caption>Lines{order.PricesIncludeTax ? ' (prices include tax)' : ''}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">SKU</th>
          <th scope="col">Name</th>
          <th scope="col" class="num">
            Quantity
          </th>
          <th scope="col" class="num">
            Unit price
          </th>
          <th scope="col" class="num">
            Tax rate
          </th>
          <th scope="col" class="num">
            Discount
          </th>
          <th scope="col" class="num">
            Net
          </th>
          <th scope="col" class="num">
            Tax
          </th>
          <th scope="col" class="num">
            Gross
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.LineNumber}>
            <td>{l.LineNumber}</td>
            <td>{l.Sku}</td>
            <td>{l.Name}</td>
            <td class="num">{count(l.Quantity)}</td>
            <td class="num">{money(l.UnitPrice, c)}</td>
            <td class="num">{count(l.TaxRate)} %</td>
            <td class="num">{l.Discount ? money(l.Discount, c) : '—'}</td>
            <td class="num">{money(l.Net, c)}</td>
            <td class="num">{money(l.Tax, c)}</td>
            <td class="num">{money(l.Gross, c)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TotalsTable({ order }: { order: Order }): JSX.Element | null {
  const t = order.Totals;
  if (!t) return null;
  const c = order.Currency;
  return (
    <dl class="facts" aria-label="Totals">
      {order.Shipping && [<dt key="s">Shipping</dt>, <dd key="sv">{money(order.Shipping.Amount, c)}</dd>]}
      <dt>Discount</dt>
      <dd>{money(t.Discount, c)}</dd>
      <dt>Net</dt>
      <dd>{money(t.Net, c)}</dd>
      <dt>Tax</dt>
      <dd>{money(t.Tax, c)}</dd>
      <dt>Gross</dt>
      <dd>{money(t.Gross, c)}</dd>
      {order.Paid !== undefined && [<dt key="p">Paid</dt>, <dd key="pv">{money(order.Paid, c)}</dd>]}
      {order.Refunded !== undefined && [<dt key="r">Refunded</dt>, <dd key="rv">{money(order.Refunded, c)}</dd>]}
    </dl>
  );
}

function MoneyRecords({
  records,
  currency,
  caption,
}: {
  records: readonly MoneyRecord[] | undefined;
  currency: string | undefined;
  caption: string;
}): JSX.Element {
  if (!records || records.length === 0) return <Empty>No {caption.toLowerCase()} recorded.</Empty>;
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col" class="num">
            Amount
          </th>
          <th scope="col">Type or reason</th>
          <th scope="col">Reference</th>
        </tr>
      </thead>
      <tbody>
        {records.map((r, i) => (
          <tr key={i}>
            <td>{day(r.Date)}</td>
            <td class="num">{money(r.Amount, currency)}</td>
            <td>{text(r.Type ?? r.Reason)}</td>
            <td>{text(r.ReferenceNumber)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What happened to the order, oldest first, from the times it records. */
function timeline(o: Order): Array<{ at: string; what: string }> {
  const items: Array<{ at: string | null | undefined; what: string }> = [
    { at: o.CreatedAt, what: 'Created' },
    { at: o.ConfirmedAt, what: 'Confirmed' },
    ...(o.Shipments ?? []).map((s) => ({ at: s.ShippedAt, what: `Shipped${s.Carrier ? ` with ${s.Carrier}` : ''}` })),
    ...(o.Payments ?? []).map((p) => ({ at: p.Date, what: `Payment of ${money(p.Amount, o.Currency)}` })),
    ...(o.Refunds ?? []).map((r) => ({ at: r.Date, what: `Refund of ${money(r.Amount, o.Currency)}` })),
    ...(o.Returns ?? []).map((r) => ({ at: r.ReceivedAt, what: 'Return received' })),
    { at: o.CancelledAt, what: 'Cancelled' },
    { at: o.LastModified, what: 'Last modified' },
  ];
  return items.filter((i): i is { at: string; what: string } => Boolean(i.at)).sort((a, b) => a.at.localeCompare(b.at));
}

/** The actions a key may take on an order in its state (design.md, "The operator console"). */
function actionsFor(o: Order, caps: Capabilities): ActionName[] {
  const names: ActionName[] = [];
  if (caps.admin && o.Status === 'Open') names.push('Edit order');
  if (caps.fulfilment && o.Status === 'Confirmed') {
    if (caps.shipments) names.push('Add shipment');
    names.push('Record payment', 'Record refund');
    if (caps.returns) names.push('Record return');
  }
  return names;
}

function ActionPanel({
  name,
  ...props
}: {
  name: ActionName;
  order: Order;
  onDone: (what: string) => void;
  onClose: () => void;
}): JSX.Element {
  // Keyed by the order's change, a form opened again starts from what the order holds now.
  const key = `${name}|${props.order.LastModified ?? ''}`;
  switch (name) {
    case 'Edit order':
      return <EditOrder key={key} {...props} />;
    case 'Record payment':
      return <RecordPayment key={key} {...props} />;
    case 'Record refund':
      return <RecordRefund key={key} {...props} />;
    case 'Add shipment':
      return <AddShipment key={key} {...props} />;
    case 'Record return':
      return <RecordReturn key={key} {...props} />;
  }
}

/** An order: its data, content, what was recorded after confirmation, a timeline, and the actions the key may take. */
export function OrderPage({ route }: PageProps): JSX.Element {
  const id = Number(route.path.slice('/orders/'.length));
  const caps = useCapabilities();
  const [loaded, reload] = useLoad(() => get<Order>(`/orders/${id}`), [id]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [action, setAction] = useState<ActionName | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const opener = useRef<HTMLButtonElement | null>(null);
  const open = (name: ActionName, button: HTMLButtonElement): void => {
    opener.current = button;
    setDone(undefined);
    setAction(action === name ? undefined : name);
  };
  // A closed form gives the focus back to the button that opened it.
  const close = (): void => {
    setAction(undefined);
    opener.current?.focus();
  };
  const finished = (what: string): void => {
    close();
    setDone(what);
    reload();
  };
  const cancel = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await post(`/orders/${id}/cancel`);
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Show loaded={loaded}>
      {(o) => {
        return (
          <>
            <div class="page-head">
              <h1>Order {o.OrderNumber}</h1>
              <StatusBadge status={o.Status} />
              <StatusBadge status={o.FulfillmentStatus} />
              <StatusBadge status={o.PaymentStatus} />
              <div class="actions">
                {actionsFor(o, caps).map((name) => (
                  <button
                    key={name}
                    type="button"
                    class="btn btn-secondary"
                    aria-expanded={action === name ? 'true' : 'false'}
                    onClick={(e) => open(name, e.currentTarget)}
                  >
                    {name}
                  </button>
                ))}
                {caps.admin && o.Status !== 'Cancelled' && (
                  <Busy type="button" kind="danger" busy={busy} label="Cancel order" onClick={() => void cancel()} />
                )}
              </div>
            </div>
            <ErrorNote error={error} />
            {done && <Done>{done}</Done>}
            {action && <ActionPanel name={action} order={o} onDone={finished} onClose={close} />}
            <dl class="facts" aria-label="Order">
              <dt>Order id</dt>
              <dd>{o.OrderId}</dd>
              <dt>Status</dt>
              <dd>{o.Status}</dd>
              <dt>Customer</dt>
              <dd>
                <OrderCustomer order={o} />
              </dd>
              <dt>Currency</dt>
              <dd>{o.Currency ?? '—'}</dd>
              <dt>Note</dt>
              <dd>{o.Note ?? '—'}</dd>
              <dt>Created</dt>
              <dd>{when(o.CreatedAt)}</dd>
              <dt>Confirmed</dt>
              <dd>{when(o.ConfirmedAt)}</dd>
              <dt>Cancelled</dt>
              <dd>{when(o.CancelledAt)}</dd>
            </dl>
            <h2>Lines and totals</h2>
            <Lines order={o} />
            <TotalsTable order={o} />
            <h2>Customer, delivery and payment</h2>
            {o.Confirmation ? <ConfirmationFacts values={o.Confirmation} currency={o.Currency} /> : <Empty>Not confirmed yet.</Empty>}
            <h2>Shipments</h2>
            {o.Shipments && o.Shipments.length > 0 ? (
              <table>
                <caption>Shipments</caption>
                <thead>
                  <tr>
                    <th scope="col">Shipped</th>
                    <th scope="col">Carrier</th>
                    <th scope="col">Tracking number</th>
                    <th scope="col">Lines</th>
                  </tr>
                </thead>
                <tbody>
                  {o.Shipments.map((s) => (
                    <tr key={s.ShipmentId}>
                      <td>{when(s.ShippedAt)}</td>
                      <td>{text(s.Carrier)}</td>
                      <td>
                        {s.TrackingUrl && /^https?:\/\//i.test(s.TrackingUrl) ? (
                          <a href={s.TrackingUrl} rel="noreferrer noopener" target="_blank">
                            {s.TrackingNumber || 'Track'}
                          </a>
                        ) : (
                          text(s.TrackingNumber)
                        )}
                      </td>
                      <td>{(s.Lines ?? []).map((l) => `#${l.LineNumber} × ${l.Quantity}`).join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <Empty>No shipments recorded.</Empty>
            )}
            <h2>Payments</h2>
            <MoneyRecords records={o.Payments} currency={o.Currency} caption="Payments" />
            <h2>Refunds</h2>
            <MoneyRecords records={o.Refunds} currency={o.Currency} caption="Refunds" />
            <h2>Returns</h2>
            {o.Returns && o.Returns.length > 0 ? (
              <ul>
                {o.Returns.map((r) => (
                  <li key={r.ReturnId}>
                    {when(r.ReceivedAt)}: {(r.Lines ?? []).map((l) => `#${l.LineNumber} × ${l.Quantity}`).join(', ')}{' '}
                    {r.Reason ? `(${r.Reason})` : ''}
                  </li>
                ))}
              </ul>
            ) : (
              <Empty>No returns recorded.</Empty>
            )}
            <h2>Timeline</h2>
            <ol class="timeline">
              {timeline(o).map((t, i) => (
                <li key={i}>
                  <time dateTime={t.at}>{when(t.at)}</time> — {t.what}
                </li>
              ))}
            </ol>
          </>
        );
      }}
    </Show>
  );
}
