// The key lives in this tab's sessionStorage only: never a cookie (sent without asking), never a
// URL (kept in history and logs). Closing the tab forgets it.
const KEY = 'ordergate.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);
