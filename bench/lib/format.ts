const missing = (v: number | null | undefined): v is null | undefined => v === undefined || v === null || !Number.isFinite(v);

/** Whole number with thousands separators; '–' when not measured. */
export const n0 = (v: number | null | undefined): string => (missing(v) ? '–' : Math.round(v).toLocaleString('en-US'));

/** Two decimals; '–' when not measured. */
export const n2 = (v: number | null | undefined): string => (missing(v) ? '–' : v.toFixed(2));

/** One decimal; '–' when not measured. */
export const n1 = (v: number | null | undefined): string => (missing(v) ? '–' : v.toFixed(1));
