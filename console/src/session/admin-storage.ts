/**
 * The installation admin's credential (`Admin-Auth`) on the console's admin side: in
 * sessionStorage, for this tab's life only, removed on signing out; sent only to /admin/ routes.
 */
const KEY = 'gw-console.admin-secret';

export const adminSecret = (): string | null => sessionStorage.getItem(KEY);
export const keepAdminSecret = (secret: string): void => sessionStorage.setItem(KEY, secret);
export const forgetAdminSecret = (): void => sessionStorage.removeItem(KEY);
