import assert from 'node:assert/strict';
import type { Config } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers.js';

export const ADMIN = { name: 'root', email: 'root@example.org', password: 'root-password-1' };
export const adminHeaders = { 'x-thentos-user': ADMIN.name, 'x-thentos-password': ADMIN.password };

export type Headers = Record<string, string>;

export const userHeaders = (name: string, password: string): Headers => ({ 'x-thentos-user': name, 'x-thentos-password': password });
export const serviceHeaders = (id: string, key: string): Headers => ({ 'x-thentos-service': id, 'x-thentos-password': key });
export const sessionHeaders = (token: string): Headers => ({ 'x-thentos-session': token });

export interface UsersvcTestApp extends TestApp {
  /** Creates a user as the admin; returns her id, name, password and headers. */
  addUser(name: string, email?: string): Promise<{ id: number; name: string; password: string; headers: Headers }>;
  /** Opens the user's session with her own credentials; returns the token. */
  openSession(headers: Headers, userId: number): Promise<string>;
  addService(): Promise<{ id: string; key: string; headers: Headers }>;
}

/** A fresh platform app with the user/session service and a configured first admin. */
export async function usersvcTestApp(overrides: Partial<Config> = {}): Promise<UsersvcTestApp> {
  const base = await createTestApp({ usersvcAdmin: ADMIN, ...overrides });
  return {
    ...base,
    async addUser(name, email = `${name.toLowerCase().replace(/\W/g, '')}@example.org`) {
      const password = `${name}-password`;
      const response = await base.request({
        method: 'POST',
        url: '/user',
        headers: adminHeaders,
        payload: { udName: name, udEmail: email, udPassword: password },
      });
      assert.equal(response.status, 201, response.text);
      assert.equal(typeof response.body, 'number');
      return { id: response.body as number, name, password, headers: userHeaders(name, password) };
    },
    async openSession(headers, userId) {
      const response = await base.request({ method: 'POST', url: '/session', headers, payload: String(userId) });
      assert.equal(response.status, 201, response.text);
      return response.body as string;
    },
    async addService() {
      const response = await base.request({ method: 'POST', url: '/service' });
      assert.equal(response.status, 201, response.text);
      const [id, key] = response.body as [string, string];
      return { id, key, headers: serviceHeaders(id, key) };
    },
  };
}
