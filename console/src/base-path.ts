/** The service's BASE_PATH, as the page that loaded the console names it. */
export const basePath: string = document.querySelector<HTMLMetaElement>('meta[name="ordergate-base-path"]')?.content ?? '';
/** The service's version, as the page names it. */
export const serviceVersion: string = document.querySelector<HTMLMetaElement>('meta[name="ordergate-version"]')?.content ?? '';
/** Where the console's own pages live. */
export const consoleRoot = `${basePath}/console`;
