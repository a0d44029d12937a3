import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, call, get } from '../api/client.js';
import { CUSTOMER_FIELDS, type Customer, type CustomerField } from '../api/types.js';
import { ActionForm } from '../ui/action-form.js';
import { ErrorNote } from '../ui/feedback.js';
import { CUSTOMER_GROUPS } from '../ui/field-labels.js';
import { Field } from '../ui/form.js';

// Edit customer and New customer: UpsertCustomer (`PUT /customer/{CustomerId}`, permission admin)
// replaces the whole customer, a field not sent becoming null. So the edit form starts with every
// field as the customer holds it, and sends them all; what the service refuses is shown under the
// input of the field it names.

type Typed = Record<CustomerField, string>;
type DataField = Exclude<CustomerField, 'CustomerId'>;

const DATA_FIELDS = CUSTOMER_FIELDS.filter((f): f is DataField => f !== 'CustomerId');

export const customerPath = (id: string): string => `/customer/${encodeURIComponent(id)}`;

const typedOf = (customer: Customer | undefined): Typed =>
  Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, customer?.[f] ?? ''])) as Typed;

/** UpsertCustomer's body: every field as typed; an empty one is left out, which the service stores as null. */
const bodyOf = (typed: Typed): Partial<Record<DataField, string>> => {
  const body: Partial<Record<DataField, string>> = {};
  for (const f of DATA_FIELDS) if (typed[f].trim() !== '') body[f] = typed[f];
  return body;
};

/** A refusal of the console's own, shown as the API's are: under the input of the field. */
const refusal = (field: CustomerField, message: string): ApiError =>
  new ApiError(400, 'Refused', message, [{ ErrorCode: 'Refused', FieldName: field, Message: message }]);

/**
 * Whether a customer has this id. The PUT would replace it (200) rather than refuse, so a new
 * customer asks first. Identifiers also match external ids: only the same CustomerId counts.
 */
async function taken(id: string): Promise<boolean> {
  try {
    const found = await get<Customer[]>('/customer/', { Identifiers: [id] });
    return found.some((c) => c.CustomerId === id);
  } catch (err) {
    // The search judged the id itself (too long): its message belongs under the id's input.
    if (err instanceof ApiError && err.errors.length > 0)
      throw new ApiError(
        err.status,
        err.code,
        err.message,
        err.errors.map((e) => ({ ...e, FieldName: 'CustomerId' })),
      );
    throw err;
  }
}

/**
 * The customer's fields, grouped and labelled as the customer page shows them. With `customer`, it
 * edits that customer (its id stays); without, it makes a new one and asks for its id.
 */
export function CustomerForm({
  customer,
  onSaved,
  onClose,
}: {
  customer?: Customer;
  /** Saved: the customer as the service answered it, and whether it was created (201). */
  onSaved: (saved: Customer, created: boolean) => void;
  onClose: () => void;
}): JSX.Element {
  const [typed, setTyped] = useState(() => typedOf(customer));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const set = (name: CustomerField) => (e: Event) => setTyped({ ...typed, [name]: (e.currentTarget as HTMLInputElement).value });
  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const id = customer ? customer.CustomerId : typed.CustomerId.trim();
      if (!customer) {
        if (id === '') throw refusal('CustomerId', 'Enter the id the new customer is to have.');
        if (await taken(id)) throw refusal('CustomerId', `A customer with the id ${id} exists already; open it to change it.`);
      }
      const answer = await call<Customer>('PUT', customerPath(id), { body: bodyOf(typed) });
      // 200 to a new customer: someone made one with this id after the question above. It cannot be
      // undone here, but it must not pass unnoticed.
      if (!customer && answer.status !== 201)
        throw refusal(
          'CustomerId',
          `A customer with the id ${id} was made meanwhile by someone else and this save replaced it; open it to check.`,
        );
      onSaved(answer.body, answer.status === 201);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const fields = (names: ReadonlyArray<{ name: CustomerField; label: string }>) =>
    customer ? names.filter((f) => f.name !== 'CustomerId') : names;
  return (
    <ActionForm
      name={customer ? 'Edit customer' : 'New customer'}
      busy={busy}
      submitLabel="Save customer"
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <ErrorNote error={error} shownFields={customer ? DATA_FIELDS : CUSTOMER_FIELDS} />
      <p class="muted">Every field is saved as it stands here: an emptied field is removed from the customer.</p>
      {CUSTOMER_GROUPS.map((g) => (
        <fieldset key={g.heading}>
          <legend>{g.heading}</legend>
          <div class="grid">
            {fields(g.fields).map((f) => (
              <Field
                key={f.name}
                label={f.label}
                field={f.name}
                error={error}
                hint={f.name === 'CustomerId' ? 'Not yet given to another customer' : undefined}
              >
                {(p) => <input {...p} value={typed[f.name]} onInput={set(f.name)} autoComplete="off" />}
              </Field>
            ))}
          </div>
        </fieldset>
      ))}
    </ActionForm>
  );
}
