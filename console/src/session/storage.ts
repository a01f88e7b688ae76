/**
 * The access key lives in sessionStorage: it lasts for this tab only (a new tab or a closed browser
 * asks again) and signing out removes it. It is never written anywhere else.
 */
const KEY = 'gw-console.access-key';

export const accessKey = (): string | null => sessionStorage.getItem(KEY);
export const keepAccessKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetAccessKey = (): void => sessionStorage.removeItem(KEY);
