import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import type { Order } from '../api/types.js';
import { Field } from './form.js';

// An order's content as a form edits it (CreateOrder, UpdateOrder): every value kept as the person
// typed it, turned into the request only on sending, so that the API — which knows the currency's
// digits and the limits — judges it and names the field it refuses.

export interface LineDraft {
  /** Identifies the row while rows come and go (never sent). */
  readonly row: number;
  readonly Sku: string;
  readonly Name: string;
  readonly Quantity: string;
  readonly UnitPrice: string;
  readonly TaxRate: string;
  readonly Discount: string;
}

export interface ContentDraft {
  readonly Currency: string;
  readonly PricesIncludeTax: boolean;
  readonly Lines: readonly LineDraft[];
  readonly ShippingName: string;
  readonly ShippingAmount: string;
  readonly ShippingTaxRate: string;
}

let rows = 0;
const emptyLine = (): LineDraft => ({ row: ++rows, Sku: '', Name: '', Quantity: '1', UnitPrice: '', TaxRate: '', Discount: '' });
const shown = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

/** The draft of an order's current content (a new order: no lines, the currency left to the service's default). */
export function draftOf(order?: Order): ContentDraft {
  if (!order) {
    return { Currency: '', PricesIncludeTax: false, Lines: [], ShippingName: '', ShippingAmount: '', ShippingTaxRate: '' };
  }
  return {
    Currency: order.Currency ?? '',
    PricesIncludeTax: order.PricesIncludeTax ?? false,
    Lines: (order.Lines ?? []).map((l) => ({
      row: ++rows,
      Sku: l.Sku,
      Name: l.Name,
      Quantity: shown(l.Quantity),
      UnitPrice: shown(l.UnitPrice),
      TaxRate: shown(l.TaxRate),
      Discount: l.Discount ? shown(l.Discount) : '',
    })),
    ShippingName: order.Shipping?.Name ?? '',
    ShippingAmount: shown(order.Shipping?.Amount),
    ShippingTaxRate: shown(order.Shipping?.TaxRate),
  };
}

/**
 * A typed number as the API takes it: empty → absent; `12,50` read as `12.50` (a decimal comma, as
 * many locales type it); anything else unreadable is sent as typed, for the API to name its field.
 */
export function numberOf(typed: string): number | string | undefined {
  const t = typed.trim().replace(/\s/g, '');
  if (t === '') return undefined;
  const n = Number(!t.includes('.') && /^-?\d+,\d+$/.test(t) ? t.replace(',', '.') : t);
  return Number.isFinite(n) ? n : typed;
}

/** The content part of a CreateOrder or UpdateOrder request. */
export function contentOf(d: ContentDraft): Record<string, unknown> {
  const shipping = [d.ShippingName, d.ShippingAmount, d.ShippingTaxRate].some((v) => v.trim() !== '');
  return {
    Currency: d.Currency.trim().toUpperCase() || undefined,
    PricesIncludeTax: d.PricesIncludeTax,
    Lines: d.Lines.map((l) => ({
      Sku: l.Sku.trim(),
      Name: l.Name.trim(),
      Quantity: numberOf(l.Quantity),
      UnitPrice: numberOf(l.UnitPrice),
      TaxRate: numberOf(l.TaxRate),
      Discount: numberOf(l.Discount),
    })),
    Shipping: shipping
      ? { Name: d.ShippingName.trim() || undefined, Amount: numberOf(d.ShippingAmount), TaxRate: numberOf(d.ShippingTaxRate) }
      : undefined,
  };
}

const LINE_COLUMNS = [
  { name: 'Sku', label: 'SKU', mode: 'text' },
  { name: 'Name', label: 'Name', mode: 'text' },
  { name: 'Quantity', label: 'Quantity', mode: 'numeric' },
  { name: 'UnitPrice', label: 'Unit price', mode: 'decimal' },
  { name: 'TaxRate', label: 'Tax rate (%)', mode: 'decimal' },
  { name: 'Discount', label: 'Discount', mode: 'decimal' },
] as const;

/** The wire names of every field the content form shows, for ErrorNote's shownFields. */
export const contentFields = (d: ContentDraft): string[] => [
  'Currency',
  'PricesIncludeTax',
  'Lines',
  ...d.Lines.flatMap((_, i) => LINE_COLUMNS.map((c) => `Lines[${i}].${c.name}`)),
  'Shipping.Name',
  'Shipping.Amount',
  'Shipping.TaxRate',
];

/** One input of a line, labelled by its column and line, with the API's message for it under it. */
function LineInput({
  value,
  label,
  field,
  mode,
  error,
  onInput,
  inputRef,
}: {
  value: string;
  label: string;
  field: string;
  mode: 'text' | 'numeric' | 'decimal';
  error: unknown;
  onInput: (v: string) => void;
  inputRef?: (el: HTMLInputElement | null) => void;
}): JSX.Element {
  const id = useId();
  const message = error instanceof ApiError ? error.forField(field) : undefined;
  return (
    <td class={message ? 'field-invalid' : undefined}>
      <input
        ref={inputRef}
        aria-label={label}
        value={value}
        inputMode={mode}
        class={mode === 'text' ? undefined : 'num'}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        {...(message ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${id}-error` } : {})}
      />
      {message && (
        <small id={`${id}-error`} class="field-error">
          {message}
        </small>
      )}
    </td>
  );
}

/**
 * Currency, prices net or gross, the lines (rows added and removed) and shipping, edited in place;
 * the API's messages under the inputs they name (`Lines[1].Quantity`: the second row).
 */
export function OrderContentFields({
  draft,
  onChange,
  error,
}: {
  draft: ContentDraft;
  onChange: (d: ContentDraft) => void;
  error: unknown;
}): JSX.Element {
  const [focusRow, setFocusRow] = useState<number | undefined>(undefined);
  const firstInputs = useRef(new Map<number, HTMLInputElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  // A row just added takes the focus, so that a keyboard user types on where the new row is.
  useEffect(() => {
    if (focusRow === undefined) return;
    firstInputs.current.get(focusRow)?.focus();
    setFocusRow(undefined);
  }, [focusRow]);
  const setLine = (row: number, name: keyof LineDraft, value: string): void =>
    onChange({ ...draft, Lines: draft.Lines.map((l) => (l.row === row ? { ...l, [name]: value } : l)) });
  const add = (): void => {
    const line = emptyLine();
    onChange({ ...draft, Lines: [...draft.Lines, line] });
    setFocusRow(line.row);
  };
  const remove = (row: number): void => {
    onChange({ ...draft, Lines: draft.Lines.filter((l) => l.row !== row) });
    addButton.current?.focus();
  };
  const linesMessage = error instanceof ApiError ? error.forField('Lines') : undefined;
  return (
    <>
      <div class="grid">
        <Field label="Currency" field="Currency" error={error} hint="ISO 4217 code; empty: the service's default (EUR)">
          {(p) => (
            <input
              {...p}
              value={draft.Currency}
              maxLength={3}
              autoComplete="off"
              onInput={(e) => onChange({ ...draft, Currency: (e.currentTarget as HTMLInputElement).value })}
            />
          )}
        </Field>
        <div class="field">
          <span class="field-label">Prices</span>
          <label class="check">
            <input
              type="checkbox"
              name="PricesIncludeTax"
              checked={draft.PricesIncludeTax}
              onChange={(e) => onChange({ ...draft, PricesIncludeTax: (e.currentTarget as HTMLInputElement).checked })}
            />
            Prices include tax
          </label>
        </div>
      </div>
      <table class="line-editor">
        <caption>Lines</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            {LINE_COLUMNS.map((c) => (
              <th key={c.name} scope="col" class={c.mode === 'text' ? undefined : 'num'}>
                {c.label}
              </th>
            ))}
            <th scope="col">
              <span class="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {draft.Lines.map((l, i) => (
            <tr key={l.row}>
              <td>{i + 1}</td>
              {LINE_COLUMNS.map((c, ci) => (
                <LineInput
                  key={c.name}
                  value={l[c.name]}
                  label={`${c.label}, line ${i + 1}`}
                  field={`Lines[${i}].${c.name}`}
                  mode={c.mode}
                  error={error}
                  onInput={(v) => setLine(l.row, c.name, v)}
                  {...(ci === 0
                    ? {
                        inputRef: (el: HTMLInputElement | null) => {
                          if (el) firstInputs.current.set(l.row, el);
                          else firstInputs.current.delete(l.row);
                        },
                      }
                    : {})}
                />
              ))}
              <td>
                <button type="button" class="btn btn-secondary" onClick={() => remove(l.row)}>
                  Remove line {i + 1}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {linesMessage && <p class="field-error">{linesMessage}</p>}
      <p>
        <button type="button" class="btn btn-secondary" ref={addButton} onClick={add}>
          Add line
        </button>
      </p>
      <fieldset>
        <legend>Shipping</legend>
        <div class="grid">
          <Field label="Shipping method" field="Shipping.Name" error={error} hint="All three empty: no shipping">
            {(p) => (
              <input
                {...p}
                value={draft.ShippingName}
                onInput={(e) => onChange({ ...draft, ShippingName: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
          </Field>
          <Field label="Shipping amount" field="Shipping.Amount" error={error}>
            {(p) => (
              <input
                {...p}
                inputMode="decimal"
                value={draft.ShippingAmount}
                onInput={(e) => onChange({ ...draft, ShippingAmount: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
          </Field>
          <Field label="Shipping tax rate (%)" field="Shipping.TaxRate" error={error}>
            {(p) => (
              <input
                {...p}
                inputMode="decimal"
                value={draft.ShippingTaxRate}
                onInput={(e) => onChange({ ...draft, ShippingTaxRate: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
          </Field>
        </div>
      </fieldset>
    </>
  );
}
