import type { CustomerField } from '../api/types.js';

// What a person reads instead of the wire's names (`CustomerFirstName` → "First name"), and the
// groups the fields are shown in. The wire names stay the API's; only what is shown changes.

/** How a value is written: as text, as a calendar date, or as an amount in the order's currency. */
export type ValueKind = 'text' | 'day' | 'money';

export interface LabelledField {
  /** The wire name; a dotted one reaches into an object (`Payment.Amount`). */
  readonly name: string;
  readonly label: string;
  readonly kind?: ValueKind;
}

export interface FieldGroup {
  readonly heading: string;
  readonly fields: readonly LabelledField[];
}

/** A confirmation's fields (the confirm request's), grouped; the last group takes what no other names. */
export const CONFIRMATION_GROUPS: readonly FieldGroup[] = [
  {
    heading: 'Customer',
    fields: [
      { name: 'CustomerSalutation', label: 'Salutation' },
      { name: 'CustomerFirstName', label: 'First name' },
      { name: 'CustomerLastName', label: 'Last name' },
      { name: 'CustomerCompany', label: 'Company' },
      { name: 'CustomerCompany2', label: 'Company, 2nd line' },
      { name: 'CustomerStreet', label: 'Street' },
      { name: 'CustomerStreetNumber', label: 'Street number' },
      { name: 'AdditionToAddress', label: 'Addition to address' },
      { name: 'CustomerPostalCode', label: 'Postal code' },
      { name: 'CustomerCity', label: 'City' },
      { name: 'CustomerCountry', label: 'Country' },
      { name: 'CustomerEMail', label: 'E-mail' },
      { name: 'CustomerId', label: 'Customer id' },
      { name: 'ExternalCustomerId', label: 'External customer id' },
    ],
  },
  {
    heading: 'Delivery address',
    fields: [
      { name: 'DeliveryAddressSalutation', label: 'Salutation' },
      { name: 'DeliveryAddressFirstName', label: 'First name' },
      { name: 'DeliveryAddressLastName', label: 'Last name' },
      { name: 'DeliveryAddressCompany', label: 'Company' },
      { name: 'DeliveryAddressStreet', label: 'Street' },
      { name: 'DeliveryAddressStreetNumber', label: 'Street number' },
      { name: 'AdditionToDeliveryAddress', label: 'Addition to address' },
      { name: 'DeliveryAddressPostalCode', label: 'Postal code' },
      { name: 'DeliveryAddressCity', label: 'City' },
      { name: 'DeliveryAddressCountry', label: 'Country' },
    ],
  },
  {
    heading: 'Bank and payment',
    fields: [
      { name: 'PaymentMethod', label: 'Payment method' },
      { name: 'AccountHolderName', label: 'Account holder' },
      { name: 'CustomerIban', label: 'IBAN' },
      { name: 'CustomerBic', label: 'BIC' },
      { name: 'CustomerSepaMandateReference', label: 'SEPA mandate reference' },
      { name: 'CustomerSepaMandateDate', label: 'SEPA mandate date', kind: 'day' },
      { name: 'Payment.Amount', label: 'Payment amount', kind: 'money' },
      { name: 'Payment.Type', label: 'Payment type' },
      { name: 'Payment.Name', label: 'Payment name' },
      { name: 'Payment.Date', label: 'Payment date', kind: 'day' },
      { name: 'Payment.ReferenceNumber', label: 'Payment reference' },
      { name: 'Payment.FinancialAccountNumber', label: 'Financial account number' },
    ],
  },
  {
    heading: 'Other',
    fields: [
      { name: 'OrderNumber', label: 'Shop order number' },
      { name: 'ShippingMethod', label: 'Shipping method' },
      { name: 'DeliveryDate', label: 'Delivery date', kind: 'day' },
      { name: 'MediaCode', label: 'Media code' },
      { name: 'Note', label: 'Customer note' },
    ],
  },
];

/** A customer's 14 fields (SearchCustomers), grouped. */
export const CUSTOMER_GROUPS: ReadonlyArray<{
  readonly heading: string;
  readonly fields: ReadonlyArray<{ name: CustomerField; label: string }>;
}> = [
  {
    heading: 'Customer',
    fields: [
      { name: 'CustomerId', label: 'Customer id' },
      { name: 'ExternalId', label: 'External id' },
      { name: 'Salutation', label: 'Salutation' },
      { name: 'FirstName', label: 'First name' },
      { name: 'LastName', label: 'Last name' },
      { name: 'Company', label: 'Company' },
      { name: 'Company2', label: 'Company, 2nd line' },
    ],
  },
  {
    heading: 'Address',
    fields: [
      { name: 'Street', label: 'Street' },
      { name: 'StreetNumber', label: 'Street number' },
      { name: 'AdditionToAddress', label: 'Addition to address' },
      { name: 'Quarter', label: 'Quarter' },
      { name: 'PostalCode', label: 'Postal code' },
      { name: 'City', label: 'City' },
      { name: 'Country', label: 'Country' },
    ],
  },
];

/** The value at a wire name, dotted names reaching into objects (`Payment.Amount`). */
export function valueAt(values: Record<string, unknown>, name: string): unknown {
  let v: unknown = values;
  for (const part of name.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * The groups with the fields a confirmation holds; fields the list does not name (a newer service's)
 * join the last group under their wire names, so that nothing the API sends goes unseen.
 */
export function groupsOf(values: Record<string, unknown>, groups: readonly FieldGroup[] = CONFIRMATION_GROUPS): FieldGroup[] {
  const named = new Set(groups.flatMap((g) => g.fields.map((f) => f.name.split('.')[0]!)));
  const payment = valueAt(values, 'Payment');
  const paymentNamed = new Set(groups.flatMap((g) => g.fields.filter((f) => f.name.startsWith('Payment.')).map((f) => f.name)));
  const extra: LabelledField[] = [
    ...Object.keys(values)
      .filter((k) => !named.has(k))
      .map((k) => ({ name: k, label: k })),
    ...(payment && typeof payment === 'object'
      ? Object.keys(payment)
          .map((k) => `Payment.${k}`)
          .filter((k) => !paymentNamed.has(k))
          .map((k) => ({ name: k, label: k }))
      : []),
  ];
  const hasPayment = payment !== null && payment !== undefined;
  return groups.map((g, i) => ({
    heading: g.heading,
    fields: [
      // The payment's own fields only when the confirmation carried a payment.
      ...g.fields.filter((f) => hasPayment || !f.name.startsWith('Payment.')),
      ...(i === groups.length - 1 ? extra : []),
    ],
  }));
}
