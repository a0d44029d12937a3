/**
 * ISO 4217 alphabetic codes of the currencies in circulation (List One, as the maintenance agency
 * SIX publishes it, 2025 edition) with their minor-unit digits. Codes whose minor unit is "N.A."
 * (gold, silver, SDR, test and "no currency" codes) are left out: they are not prices.
 *
 * Kept by hand because Node's `Intl` is not an ISO 4217 source: its digits are CLDR's display
 * digits (HUF, IDR, COP… 0 where ISO says 2), it accepts any three letters (ZZZ → 2 digits) and
 * `Intl.supportedValuesOf('currency')` lacks CLF and UYW while listing withdrawn HRK
 * (test/money/currencies.test.ts holds the evidence). The `currency-codes` package, which is
 * generated from the agency's XML, should replace this table.
 */
const BY_DIGITS: Readonly<Record<number, string>> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  2:
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL ' +
    'GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR ' +
    'LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD ' +
    'PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC ' +
    'SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};

const MINOR_DIGITS: ReadonlyMap<string, number> = new Map(
  Object.entries(BY_DIGITS).flatMap(([digits, codes]) => codes.split(' ').map((code) => [code, Number(digits)] as const)),
);

/** Every known code, sorted. */
export const CURRENCY_CODES: readonly string[] = [...MINOR_DIGITS.keys()].sort();

/** The currency's minor-unit digits (EUR 2, JPY 0, KWD 3, CLF 4), or undefined for a code ISO 4217 does not list. */
export function minorDigitsOf(code: string): number | undefined {
  return MINOR_DIGITS.get(code);
}

export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && MINOR_DIGITS.has(value);
}
