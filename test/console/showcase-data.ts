import assert from 'node:assert/strict';
import type { RunningServer } from '../clients/client-server.js';

// A small tea shop's customers and orders, made through the API as a shop would make them: the
// pages the console's screenshots show, and data the tests read the console's formatting from.
// Every order is confirmed (one cancelled afterwards): none of them is `Open`, so the suites that
// count open orders count only their own.

type Inject = RunningServer['t']['inject'];

interface Person {
  readonly CustomerId: string;
  readonly Salutation: string;
  readonly FirstName: string;
  readonly LastName: string;
  readonly Company?: string;
  readonly Street: string;
  readonly StreetNumber: string;
  readonly Quarter?: string;
  readonly PostalCode: string;
  readonly City: string;
  readonly Country: 'DE' | 'AT';
  readonly EMail: string;
}

export const SHOWCASE_CUSTOMERS: readonly Person[] = [
  {
    CustomerId: 'K-10231',
    Salutation: 'Frau',
    FirstName: 'Sabine',
    LastName: 'Krüger',
    Street: 'Lindenallee',
    StreetNumber: '14',
    Quarter: 'Eimsbüttel',
    PostalCode: '20259',
    City: 'Hamburg',
    Country: 'DE',
    EMail: 'sabine.krueger@example.de',
  },
  {
    CustomerId: 'K-10232',
    Salutation: 'Herr',
    FirstName: 'Thomas',
    LastName: 'Berger',
    Street: 'Mariahilfer Straße',
    StreetNumber: '88',
    Quarter: 'Neubau',
    PostalCode: '1070',
    City: 'Wien',
    Country: 'AT',
    EMail: 't.berger@example.at',
  },
  {
    CustomerId: 'K-10233',
    Salutation: 'Frau',
    FirstName: 'Lena',
    LastName: 'Hoffmann',
    Company: 'Hoffmann Feinkost GmbH',
    Street: 'Bahnhofstraße',
    StreetNumber: '3',
    PostalCode: '79098',
    City: 'Freiburg im Breisgau',
    Country: 'DE',
    EMail: 'einkauf@hoffmann-feinkost.example',
  },
  {
    CustomerId: 'K-10234',
    Salutation: 'Herr',
    FirstName: 'Jonas',
    LastName: 'Weber',
    Street: 'Schillerstraße',
    StreetNumber: '27a',
    PostalCode: '04109',
    City: 'Leipzig',
    Country: 'DE',
    EMail: 'jonas.weber@example.de',
  },
  {
    CustomerId: 'K-10235',
    Salutation: 'Frau',
    FirstName: 'Maria',
    LastName: 'Gruber',
    Street: 'Getreidegasse',
    StreetNumber: '9',
    PostalCode: '5020',
    City: 'Salzburg',
    Country: 'AT',
    EMail: 'maria.gruber@example.at',
  },
  {
    CustomerId: 'K-10236',
    Salutation: 'Herr',
    FirstName: 'Klaus',
    LastName: 'Schmid',
    Company: 'Café Schmid OG',
    Street: 'Herrengasse',
    StreetNumber: '16',
    PostalCode: '8010',
    City: 'Graz',
    Country: 'AT',
    EMail: 'office@cafe-schmid.example',
  },
  {
    CustomerId: 'K-10237',
    Salutation: 'Frau',
    FirstName: 'Julia',
    LastName: 'Neumann',
    Street: 'Aachener Straße',
    StreetNumber: '212',
    Quarter: 'Braunsfeld',
    PostalCode: '50931',
    City: 'Köln',
    Country: 'DE',
    EMail: 'julia.neumann@example.de',
  },
];

/** The customer whose page the screenshots show (a company, custom fields, two kinds of order record). */
export const SHOWCASE_CUSTOMER = 'K-10233';
/** The order whose page the screenshots show: four lines, paid by SEPA direct debit, shipped, partly refunded. */
export const SHOWCASE_ORDER = 'TK-24053';

interface Product {
  readonly Sku: string;
  readonly Name: string;
  readonly UnitPrice: number;
  /** Food (tea) is taxed at the reduced rate, everything else at the standard rate of the customer's country. */
  readonly reduced: boolean;
}

const P = {
  darjeeling: { Sku: 'TEA-DJ-FF-100', Name: 'Darjeeling First Flush, 100 g', UnitPrice: 12.9, reduced: true },
  sencha: { Sku: 'TEA-SEN-250', Name: 'Sencha Fukuyu, 250 g', UnitPrice: 18.5, reduced: true },
  earlGrey: { Sku: 'TEA-EG-BIO-100', Name: 'Earl Grey Bio, 100 g', UnitPrice: 8.4, reduced: true },
  rooibos: { Sku: 'TEA-ROO-200', Name: 'Rooibos Vanille, 200 g', UnitPrice: 7.9, reduced: true },
  tasting: { Sku: 'TEA-PROBE-6', Name: 'Probierset, 6 Sorten', UnitPrice: 29.9, reduced: true },
  teapot: { Sku: 'ACC-KAN-12', Name: 'Teekanne Gusseisen, 1,2 l', UnitPrice: 49, reduced: false },
  strainer: { Sku: 'ACC-SIEB-ES', Name: 'Teesieb Edelstahl', UnitPrice: 6.9, reduced: false },
  bowls: { Sku: 'ACC-SCH-2', Name: 'Teeschalen, 2 Stück', UnitPrice: 24, reduced: false },
} satisfies Record<string, Product>;

const RATES = { DE: { reduced: 7, standard: 19 }, AT: { reduced: 10, standard: 20 } } as const;
const SHIPPING = {
  DE: { Name: 'DHL Paket', Amount: 4.9, TaxRate: 19 },
  AT: { Name: 'Österreichische Post', Amount: 7.9, TaxRate: 20 },
} as const;

interface OrderPlan {
  readonly OrderNumber: string;
  readonly customer: string;
  readonly lines: ReadonlyArray<readonly [Product, number]>;
  readonly confirmation?: Record<string, unknown>;
  /** Paid with the confirmation (`Payment`), with its name, type and reference. */
  readonly paidAtCheckout?: { Name: string; Type: string; ReferenceNumber: string; FinancialAccountNumber?: string };
  readonly payment?: Record<string, unknown>;
  /** Lines shipped (all when none are named), with carrier and tracking. */
  readonly shipment?: {
    Carrier: string;
    TrackingNumber: string;
    TrackingUrl: string;
    Lines?: Array<{ LineNumber: number; Quantity: number }>;
  };
  readonly refund?: Record<string, unknown>;
  readonly returned?: Record<string, unknown>;
  readonly cancel?: boolean;
}

const dhl = (n: string): string => `https://www.dhl.de/de/privatkunden/pakete-empfangen/verfolgen.html?piececode=${n}`;

const ORDERS: readonly OrderPlan[] = [
  {
    OrderNumber: 'TK-24048',
    customer: SHOWCASE_CUSTOMER,
    lines: [
      [P.sencha, 4],
      [P.rooibos, 6],
    ],
    confirmation: { PaymentMethod: 'Rechnung' },
    payment: { Type: 'Unknown', Name: 'Überweisung', ReferenceNumber: 'RE-24048' },
    shipment: { Carrier: 'DHL', TrackingNumber: '00340434161094042540', TrackingUrl: dhl('00340434161094042540') },
  },
  {
    OrderNumber: 'TK-24051',
    customer: 'K-10231',
    lines: [
      [P.darjeeling, 2],
      [P.strainer, 1],
      [P.rooibos, 1],
    ],
    confirmation: { PaymentMethod: 'PayPal', MediaCode: 'NEWSLETTER-11' },
    paidAtCheckout: { Name: 'PayPal Checkout', Type: 'PayPal', ReferenceNumber: '5TY81234AB567890C' },
    shipment: { Carrier: 'DHL', TrackingNumber: '00340434161094042557', TrackingUrl: dhl('00340434161094042557') },
  },
  {
    OrderNumber: 'TK-24052',
    customer: 'K-10232',
    lines: [
      [P.sencha, 1],
      [P.teapot, 1],
    ],
    confirmation: { PaymentMethod: 'Rechnung', Note: 'Bitte beim Nachbarn (Top 4) abgeben.' },
    payment: { Type: 'Unknown', Name: 'Überweisung', ReferenceNumber: 'RE-24052' },
    // The teapot is back-ordered: the tea goes ahead.
    shipment: {
      Carrier: 'Österreichische Post',
      TrackingNumber: 'RR123456785AT',
      TrackingUrl: 'https://www.post.at/s/sendungssuche?snr=RR123456785AT',
      Lines: [{ LineNumber: 1, Quantity: 1 }],
    },
  },
  {
    OrderNumber: SHOWCASE_ORDER,
    customer: SHOWCASE_CUSTOMER,
    lines: [
      [P.earlGrey, 6],
      [P.darjeeling, 4],
      [P.bowls, 2],
      [P.tasting, 3],
    ],
    confirmation: {
      PaymentMethod: 'SEPA-Lastschrift',
      AccountHolderName: 'Hoffmann Feinkost GmbH',
      CustomerIban: 'DE02120300000000202051',
      CustomerBic: 'BYLADEM1001',
      CustomerSepaMandateReference: 'TK-M-10233',
      CustomerSepaMandateDate: '2025-09-15T00:00:00Z',
      DeliveryAddressSalutation: 'Frau',
      DeliveryAddressFirstName: 'Lena',
      DeliveryAddressLastName: 'Hoffmann',
      DeliveryAddressCompany: 'Hoffmann Feinkost GmbH, Lager',
      DeliveryAddressStreet: 'Industriestraße',
      DeliveryAddressStreetNumber: '41',
      AdditionToDeliveryAddress: 'Tor 2, Warenannahme 7–15 Uhr',
      DeliveryAddressPostalCode: '79108',
      DeliveryAddressCity: 'Freiburg im Breisgau',
      DeliveryAddressCountry: 'DE',
      MediaCode: 'B2B-HERBST',
    },
    paidAtCheckout: { Name: 'SEPA-Lastschrift', Type: '', ReferenceNumber: 'TK-24053', FinancialAccountNumber: '1200' },
    shipment: { Carrier: 'DHL', TrackingNumber: '00340434161094042564', TrackingUrl: dhl('00340434161094042564') },
    refund: { Amount: 24, Reason: 'Teeschalen beim Versand zerbrochen', ReferenceNumber: 'GS-24053-1' },
  },
  {
    OrderNumber: 'TK-24054',
    customer: 'K-10234',
    lines: [
      [P.sencha, 1],
      [P.earlGrey, 2],
    ],
    confirmation: { PaymentMethod: 'Vorkasse' },
  },
  {
    OrderNumber: 'TK-24055',
    customer: 'K-10235',
    lines: [
      [P.tasting, 1],
      [P.bowls, 1],
      [P.rooibos, 2],
    ],
    confirmation: { PaymentMethod: 'PayPal' },
    paidAtCheckout: { Name: 'PayPal Checkout', Type: 'PayPal', ReferenceNumber: '8KL20417FD3312345' },
    shipment: {
      Carrier: 'Österreichische Post',
      TrackingNumber: 'RR123456799AT',
      TrackingUrl: 'https://www.post.at/s/sendungssuche?snr=RR123456799AT',
    },
    returned: { Lines: [{ LineNumber: 2, Quantity: 1 }], Reason: 'Farbe gefällt nicht' },
  },
  {
    OrderNumber: 'TK-24056',
    customer: 'K-10231',
    lines: [
      [P.teapot, 1],
      [P.darjeeling, 1],
    ],
    confirmation: { PaymentMethod: 'Vorkasse' },
    cancel: true,
  },
];

async function send(inject: Inject, method: 'POST' | 'PUT', url: string, payload: unknown): Promise<Record<string, unknown>> {
  const res = await inject({ method, url, payload: payload as Record<string, unknown> });
  assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

/** A date a few days ahead, as a calendar date (midnight UTC). */
const daysAhead = (n: number): string => `${new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;

function confirmationOf(c: Person, plan: OrderPlan, gross: number): Record<string, unknown> {
  return {
    CustomerId: c.CustomerId,
    CustomerSalutation: c.Salutation,
    CustomerFirstName: c.FirstName,
    CustomerLastName: c.LastName,
    CustomerCompany: c.Company ?? '',
    CustomerStreet: c.Street,
    CustomerStreetNumber: c.StreetNumber,
    CustomerPostalCode: c.PostalCode,
    CustomerCity: c.City,
    CustomerCountry: c.Country,
    CustomerEMail: c.EMail,
    DeliveryAddressSalutation: c.Salutation,
    DeliveryAddressFirstName: c.FirstName,
    DeliveryAddressLastName: c.LastName,
    DeliveryAddressCompany: c.Company ?? '',
    DeliveryAddressStreet: c.Street,
    DeliveryAddressStreetNumber: c.StreetNumber,
    DeliveryAddressPostalCode: c.PostalCode,
    DeliveryAddressCity: c.City,
    DeliveryAddressCountry: c.Country,
    ShippingMethod: SHIPPING[c.Country].Name,
    DeliveryDate: daysAhead(3),
    OrderNumber: plan.OrderNumber,
    ...plan.confirmation,
    ...(plan.paidAtCheckout ? { Payment: { Amount: gross, Date: new Date().toISOString(), ...plan.paidAtCheckout } } : {}),
  };
}

/** Creates the shop's customers and orders (the orders' ids by number); about thirty requests. */
export async function createShowcase(inject: Inject): Promise<Map<string, number>> {
  for (const c of SHOWCASE_CUSTOMERS) {
    await send(inject, 'PUT', `/customer/${c.CustomerId}`, {
      ExternalId: `SHOP-${c.CustomerId.slice(2)}`,
      Salutation: c.Salutation,
      FirstName: c.FirstName,
      LastName: c.LastName,
      Company: c.Company,
      Street: c.Street,
      StreetNumber: c.StreetNumber,
      Quarter: c.Quarter,
      PostalCode: c.PostalCode,
      City: c.City,
      Country: c.Country,
    });
  }
  const ids = new Map<string, number>();
  for (const plan of ORDERS) {
    const customer = SHOWCASE_CUSTOMERS.find((c) => c.CustomerId === plan.customer)!;
    const rates = RATES[customer.Country];
    const created = await send(inject, 'POST', '/orders', {
      OrderNumber: plan.OrderNumber,
      Currency: 'EUR',
      PricesIncludeTax: true,
      Lines: plan.lines.map(([p, Quantity]) => ({
        Sku: p.Sku,
        Name: p.Name,
        Quantity,
        UnitPrice: p.UnitPrice,
        TaxRate: p.reduced ? rates.reduced : rates.standard,
      })),
      Shipping: SHIPPING[customer.Country],
    });
    const id = created.OrderId as number;
    ids.set(plan.OrderNumber, id);
    const gross = ((await inject(`/orders/${id}`)).json() as { Totals: { Gross: number } }).Totals.Gross;
    await send(inject, 'POST', `/orders/${id}/confirm`, confirmationOf(customer, plan, gross));
    if (plan.payment) await send(inject, 'POST', `/orders/${id}/payments`, { Amount: gross, ...plan.payment });
    if (plan.shipment) await send(inject, 'POST', `/orders/${id}/shipments`, plan.shipment);
    if (plan.refund) await send(inject, 'POST', `/orders/${id}/refunds`, plan.refund);
    if (plan.returned) await send(inject, 'POST', `/orders/${id}/returns`, plan.returned);
    if (plan.cancel) await send(inject, 'POST', `/orders/${id}/cancel`, {});
  }
  return ids;
}
