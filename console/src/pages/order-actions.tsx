import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, put, record } from '../api/client.js';
import type { MoneyRecord, Order, ReturnRecord, Shipment } from '../api/types.js';
import { count, money } from '../format.js';
import { ActionForm } from '../ui/action-form.js';
import { ErrorNote } from '../ui/feedback.js';
import { Field } from '../ui/form.js';
import { OrderContentFields, contentFields, contentOf, draftOf, numberOf } from '../ui/order-content.js';

// The actions of the order page, each a form that opens under the page's heading: what it sends is
// design.md's contract ("Order content", "Order life after confirmation"); what the API refuses is
// shown next to the field it names.

export type ActionName = 'Edit order' | 'Record payment' | 'Record refund' | 'Add shipment' | 'Record return';

interface ActionProps {
  readonly order: Order;
  /** The action succeeded: what to tell the person (the page reloads the order). */
  readonly onDone: (what: string) => void;
  readonly onClose: () => void;
}

// getRandomValues, not randomUUID: the console may be served over plain HTTP inside a network, where
// browsers offer randomUUID to secure contexts only.
const newKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Sending a form: busy while it runs, the API's error kept for the fields. A recording keeps its
 * Idempotency-Key while no answer came (a retry after a lost answer is then not a second record)
 * and takes a new one once the API has answered, since it may be sent again with other values.
 */
function useSend(): {
  busy: boolean;
  error: unknown;
  idempotencyKey: string;
  send: (run: () => Promise<void>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [idempotencyKey, setKey] = useState(newKey);
  const send = async (run: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
    } catch (err) {
      setError(err);
      if (!(err instanceof ApiError && err.status === 0)) setKey(newKey());
      setBusy(false);
    }
  };
  return { busy, error, idempotencyKey, send };
}

const dateOf = (typed: string | undefined): string | undefined => (typed ? typed : undefined);
const momentOf = (typed: string | undefined): string | undefined => (typed ? new Date(typed).toISOString() : undefined);
const trimmed = (typed: string): string | undefined => typed.trim() || undefined;

/** Edit order (permission admin, open orders): note and content replaced by UpdateOrder. */
export function EditOrder({ order, onDone, onClose }: ActionProps): JSX.Element {
  const [note, setNote] = useState(order.Note ?? '');
  const [draft, setDraft] = useState(() => draftOf(order));
  const { busy, error, send } = useSend();
  const submit = (): void =>
    void send(async () => {
      await put(`/orders/${order.OrderId}`, { Note: trimmed(note), ...contentOf(draft) });
      onDone('The order was saved.');
    });
  return (
    <ActionForm name="Edit order" busy={busy} submitLabel="Save order" onSubmit={submit} onClose={onClose}>
      <ErrorNote error={error} shownFields={['Note', ...contentFields(draft)]} />
      <Field label="Note" field="Note" error={error}>
        {(p) => <textarea {...p} value={note} onInput={(e) => setNote((e.currentTarget as HTMLTextAreaElement).value)} />}
      </Field>
      <OrderContentFields draft={draft} onChange={setDraft} error={error} />
    </ActionForm>
  );
}

/** What is still owed and what may be refunded, as far as the order tells. */
function MoneyHint({ order }: { order: Order }): JSX.Element | null {
  const c = order.Currency;
  const parts = [
    order.Totals ? `Total ${money(order.Totals.Gross, c)}` : '',
    order.Paid !== undefined ? `paid ${money(order.Paid, c)}` : '',
    order.Refunded !== undefined ? `refunded ${money(order.Refunded, c)}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? <p class="muted">{parts.join(', ')}.</p> : null;
}

/** Record payment (permission fulfilment or admin, confirmed orders). */
export function RecordPayment({ order, onDone, onClose }: ActionProps): JSX.Element {
  const [v, setV] = useState({ Amount: '', Type: '', Name: '', ReferenceNumber: '', Date: '' });
  const { busy, error, idempotencyKey, send } = useSend();
  const set = (name: keyof typeof v) => (e: Event) => setV({ ...v, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = (): void =>
    void send(async () => {
      const r = await record<MoneyRecord>(
        `/orders/${order.OrderId}/payments`,
        {
          Amount: numberOf(v.Amount),
          Type: v.Type || undefined,
          Name: trimmed(v.Name),
          ReferenceNumber: trimmed(v.ReferenceNumber),
          Date: dateOf(v.Date),
        },
        idempotencyKey,
      );
      onDone(`A payment of ${money(r.Amount, order.Currency)} was recorded.`);
    });
  return (
    <ActionForm name="Record payment" busy={busy} submitLabel="Save payment" onSubmit={submit} onClose={onClose}>
      <ErrorNote error={error} shownFields={['Amount', 'Type', 'Name', 'ReferenceNumber', 'Date']} />
      <MoneyHint order={order} />
      <div class="grid">
        <Field label={`Amount (${order.Currency ?? 'EUR'})`} field="Amount" error={error}>
          {(p) => <input {...p} inputMode="decimal" value={v.Amount} onInput={set('Amount')} />}
        </Field>
        <Field label="Type" field="Type" error={error}>
          {(p) => (
            <select {...p} value={v.Type} onChange={set('Type')}>
              <option value="">None</option>
              <option value="PayPal">PayPal</option>
              <option value="Unknown">Unknown</option>
            </select>
          )}
        </Field>
        <Field label="Name" field="Name" error={error}>
          {(p) => <input {...p} value={v.Name} onInput={set('Name')} />}
        </Field>
        <Field label="Reference number" field="ReferenceNumber" error={error}>
          {(p) => <input {...p} value={v.ReferenceNumber} onInput={set('ReferenceNumber')} />}
        </Field>
        <Field label="Date paid" field="Date" error={error} hint="Empty: today">
          {(p) => <input {...p} type="date" value={v.Date} onInput={set('Date')} />}
        </Field>
      </div>
    </ActionForm>
  );
}

/** Record refund (permission fulfilment or admin, confirmed orders): at most what was paid and not refunded. */
export function RecordRefund({ order, onDone, onClose }: ActionProps): JSX.Element {
  const [v, setV] = useState({ Amount: '', Reason: '', ReferenceNumber: '', Date: '' });
  const { busy, error, idempotencyKey, send } = useSend();
  const set = (name: keyof typeof v) => (e: Event) => setV({ ...v, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = (): void =>
    void send(async () => {
      const r = await record<MoneyRecord>(
        `/orders/${order.OrderId}/refunds`,
        { Amount: numberOf(v.Amount), Reason: trimmed(v.Reason), ReferenceNumber: trimmed(v.ReferenceNumber), Date: dateOf(v.Date) },
        idempotencyKey,
      );
      onDone(`A refund of ${money(r.Amount, order.Currency)} was recorded.`);
    });
  return (
    <ActionForm name="Record refund" busy={busy} submitLabel="Save refund" onSubmit={submit} onClose={onClose}>
      <ErrorNote error={error} shownFields={['Amount', 'Reason', 'ReferenceNumber', 'Date']} />
      <MoneyHint order={order} />
      <div class="grid">
        <Field label={`Amount (${order.Currency ?? 'EUR'})`} field="Amount" error={error} hint="At most what was paid and not yet refunded">
          {(p) => <input {...p} inputMode="decimal" value={v.Amount} onInput={set('Amount')} />}
        </Field>
        <Field label="Reference number" field="ReferenceNumber" error={error}>
          {(p) => <input {...p} value={v.ReferenceNumber} onInput={set('ReferenceNumber')} />}
        </Field>
        <Field label="Date refunded" field="Date" error={error} hint="Empty: today">
          {(p) => <input {...p} type="date" value={v.Date} onInput={set('Date')} />}
        </Field>
      </div>
      <Field label="Reason" field="Reason" error={error}>
        {(p) => <textarea {...p} value={v.Reason} onInput={set('Reason')} />}
      </Field>
    </ActionForm>
  );
}

/** Quantities per line number already in some records (shipped, returned). */
const quantities = (records: ReadonlyArray<Shipment | ReturnRecord> | undefined): Map<number, number> => {
  const m = new Map<number, number>();
  for (const r of records ?? []) for (const l of r.Lines ?? []) m.set(l.LineNumber, (m.get(l.LineNumber) ?? 0) + l.Quantity);
  return m;
};

/**
 * The order's lines with a quantity to enter for each; `sent` maps the request's Lines[i] back to
 * the row, so the API's message for `Lines[i].Quantity` lands under the right input.
 */
function LineQuantities({
  order,
  caption,
  label,
  done,
  doneLabel,
  typed,
  onInput,
  sent,
  error,
}: {
  order: Order;
  caption: string;
  label: string;
  done: Map<number, number> | undefined;
  doneLabel: string;
  typed: Record<number, string>;
  onInput: (line: number, v: string) => void;
  sent: readonly number[];
  error: unknown;
}): JSX.Element {
  const lines = order.Lines ?? [];
  return (
    <table class="line-editor line-quantities">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">SKU</th>
          <th scope="col">Name</th>
          <th scope="col" class="num">
            Ordered
          </th>
          {done && (
            <th scope="col" class="num">
              {doneLabel}
            </th>
          )}
          <th scope="col" class="num">
            {label}
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => {
          const i = sent.indexOf(l.LineNumber);
          const message = i >= 0 && error instanceof ApiError ? error.forField(`Lines[${i}].Quantity`) : undefined;
          const errorId = `qty-${l.LineNumber}-error`;
          return (
            <tr key={l.LineNumber}>
              <td>{l.LineNumber}</td>
              <td>{l.Sku}</td>
              <td>{l.Name}</td>
              <td class="num">{count(l.Quantity)}</td>
              {done && <td class="num">{count(done.get(l.LineNumber) ?? 0)}</td>}
              <td class={message ? 'num field-invalid' : 'num'}>
                <input
                  aria-label={`${label}, line ${l.LineNumber}`}
                  inputMode="numeric"
                  class="num"
                  value={typed[l.LineNumber] ?? ''}
                  onInput={(e) => onInput(l.LineNumber, (e.currentTarget as HTMLInputElement).value)}
                  {...(message ? { 'aria-invalid': 'true' as const, 'aria-describedby': errorId } : {})}
                />
                {message && (
                  <small id={errorId} class="field-error">
                    {message}
                  </small>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The lines typed, in line order: the request's Lines and which line each is. */
const linesTyped = (typed: Record<number, string>): { lines: Array<{ LineNumber: number; Quantity: unknown }>; sent: number[] } => {
  const entries = Object.entries(typed)
    .filter(([, v]) => v.trim() !== '')
    .map(([n, v]) => ({ LineNumber: Number(n), Quantity: numberOf(v) }))
    .sort((a, b) => a.LineNumber - b.LineNumber);
  return { lines: entries, sent: entries.map((e) => e.LineNumber) };
};

/** Add shipment (permission fulfilment or admin, confirmed orders): no quantities typed ship all that is left. */
export function AddShipment({ order, onDone, onClose }: ActionProps): JSX.Element {
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [v, setV] = useState({ Carrier: '', TrackingNumber: '', TrackingUrl: '', ShippedAt: '' });
  const [sent, setSent] = useState<number[]>([]);
  const { busy, error, idempotencyKey, send } = useSend();
  const set = (name: keyof typeof v) => (e: Event) => setV({ ...v, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = (): void =>
    void send(async () => {
      const { lines, sent: numbers } = linesTyped(typed);
      setSent(numbers);
      await record<Shipment>(
        `/orders/${order.OrderId}/shipments`,
        {
          Lines: lines.length > 0 ? lines : undefined,
          Carrier: trimmed(v.Carrier),
          TrackingNumber: trimmed(v.TrackingNumber),
          TrackingUrl: trimmed(v.TrackingUrl),
          ShippedAt: momentOf(v.ShippedAt),
        },
        idempotencyKey,
      );
      onDone('The shipment was recorded.');
    });
  const lineFields = sent.map((_, i) => `Lines[${i}].Quantity`);
  return (
    <ActionForm name="Add shipment" busy={busy} submitLabel="Save shipment" onSubmit={submit} onClose={onClose}>
      <ErrorNote error={error} shownFields={['Carrier', 'TrackingNumber', 'TrackingUrl', 'ShippedAt', ...lineFields]} />
      <p class="muted">No quantity typed: every quantity not yet shipped.</p>
      <LineQuantities
        order={order}
        caption="Quantities to ship"
        label="Quantity to ship"
        done={order.Shipments ? quantities(order.Shipments) : undefined}
        doneLabel="Shipped"
        typed={typed}
        onInput={(n, q) => setTyped({ ...typed, [n]: q })}
        sent={sent}
        error={error}
      />
      <div class="grid">
        <Field label="Carrier" field="Carrier" error={error}>
          {(p) => <input {...p} value={v.Carrier} onInput={set('Carrier')} />}
        </Field>
        <Field label="Tracking number" field="TrackingNumber" error={error}>
          {(p) => <input {...p} value={v.TrackingNumber} onInput={set('TrackingNumber')} />}
        </Field>
        <Field label="Tracking URL" field="TrackingUrl" error={error} hint="http or https">
          {(p) => <input {...p} type="url" value={v.TrackingUrl} onInput={set('TrackingUrl')} />}
        </Field>
        <Field label="Shipped at" field="ShippedAt" error={error} hint="Empty: now">
          {(p) => <input {...p} type="datetime-local" value={v.ShippedAt} onInput={set('ShippedAt')} />}
        </Field>
      </div>
    </ActionForm>
  );
}

/** Record return (permission fulfilment or admin, confirmed orders): at most what was shipped and not returned. */
export function RecordReturn({ order, onDone, onClose }: ActionProps): JSX.Element {
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [v, setV] = useState({ Reason: '', ReceivedAt: '' });
  const [sent, setSent] = useState<number[]>([]);
  const { busy, error, idempotencyKey, send } = useSend();
  const set = (name: keyof typeof v) => (e: Event) => setV({ ...v, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = (): void =>
    void send(async () => {
      const { lines, sent: numbers } = linesTyped(typed);
      setSent(numbers);
      await record<ReturnRecord>(
        `/orders/${order.OrderId}/returns`,
        { Lines: lines, Reason: trimmed(v.Reason), ReceivedAt: momentOf(v.ReceivedAt) },
        idempotencyKey,
      );
      onDone('The return was recorded.');
    });
  const lineFields = ['Lines', ...sent.map((_, i) => `Lines[${i}].Quantity`)];
  const linesMessage = error instanceof ApiError ? error.forField('Lines') : undefined;
  return (
    <ActionForm name="Record return" busy={busy} submitLabel="Save return" onSubmit={submit} onClose={onClose}>
      <ErrorNote error={error} shownFields={['Reason', 'ReceivedAt', ...lineFields]} />
      <LineQuantities
        order={order}
        caption="Quantities returned"
        label="Quantity returned"
        done={order.Shipments ? quantities(order.Shipments) : undefined}
        doneLabel="Shipped"
        typed={typed}
        onInput={(n, q) => setTyped({ ...typed, [n]: q })}
        sent={sent}
        error={error}
      />
      {linesMessage && <p class="field-error">{linesMessage}</p>}
      <div class="grid">
        <Field label="Received at" field="ReceivedAt" error={error} hint="Empty: now">
          {(p) => <input {...p} type="datetime-local" value={v.ReceivedAt} onInput={set('ReceivedAt')} />}
        </Field>
      </div>
      <Field label="Reason" field="Reason" error={error}>
        {(p) => <textarea {...p} value={v.Reason} onInput={set('Reason')} />}
      </Field>
    </ActionForm>
  );
}
